import type { Zone, ZoneGroup, ZoneKind, ZoneLookup } from "./model.ts";

/**
 * Keys:
 *   ["geofences", "zone", id]                    Zone
 *   ["geofences", "byUser", userId, kind, id]    true   (an account's zones of one kind)
 *   ["geofences", "group", id]                   ZoneGroup
 *   ["geofences", "groups", userId, id]          true
 */
const K = {
  zone: (id: string) => ["geofences", "zone", id],
  byUser: (userId: string, kind: ZoneKind, id: string) => ["geofences", "byUser", userId, kind, id],
  byUserKind: (userId: string, kind: ZoneKind) => ["geofences", "byUser", userId, kind],
  group: (id: string) => ["geofences", "group", id],
  groups: (userId: string) => ["geofences", "groups", userId],
  groupOf: (userId: string, id: string) => ["geofences", "groups", userId, id],
};

export class GeofenceStore implements ZoneLookup {
  constructor(private readonly kv: Deno.Kv) {}

  async all(): Promise<Zone[]> {
    const out: Zone[] = [];
    for await (const e of this.kv.list<Zone>({ prefix: ["geofences", "zone"] })) out.push(e.value);
    return out;
  }

  /** An account's zones, optionally of one kind, through the owner index. */
  async ofUser(userId: string, kind?: ZoneKind): Promise<Zone[]> {
    const prefix = kind ? K.byUserKind(userId, kind) : ["geofences", "byUser", userId];
    const ids: string[] = [];
    for await (const e of this.kv.list({ prefix })) ids.push(String(e.key[4]));
    const out: Zone[] = [];
    for (let i = 0; i < ids.length; i += 10) {
      const got = await this.kv.getMany<Zone[]>(ids.slice(i, i + 10).map(K.zone));
      for (const g of got) if (g.value) out.push(g.value);
    }
    return out;
  }

  async get(id: string): Promise<Zone | null> {
    return (await this.kv.get<Zone>(K.zone(id))).value;
  }

  async count(userId: string, kind: ZoneKind): Promise<number> {
    let n = 0;
    for await (const _ of this.kv.list({ prefix: K.byUserKind(userId, kind) })) n++;
    return n;
  }

  /**
   * Inserts or replaces a zone. A new zone is added only if the account still has room
   * (`limit`): the count and the insert run in one checked transaction so two concurrent
   * creations cannot both take the last slot.
   */
  async save(z: Zone, limit: number): Promise<boolean> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const existing = await this.kv.get(K.zone(z.id));
      const op = this.kv.atomic().check(existing);
      if (!existing.value) {
        const keys = [];
        for await (const e of this.kv.list({ prefix: K.byUserKind(z.userId, z.kind) })) {
          keys.push(e);
        }
        if (keys.length >= limit) return false;
        // Any concurrent insert changes the counter, failing this commit.
        const counter = await this.kv.get(["geofences", "counter", z.userId, z.kind]);
        op.check(counter).set(["geofences", "counter", z.userId, z.kind], Date.now());
      }
      op.set(K.zone(z.id), z).set(K.byUser(z.userId, z.kind, z.id), true);
      if ((await op.commit()).ok) return true;
    }
    throw new Error("zone save contended");
  }

  async remove(z: Zone): Promise<void> {
    await this.kv.atomic().delete(K.zone(z.id)).delete(K.byUser(z.userId, z.kind, z.id)).commit();
  }

  async getGroup(id: string): Promise<ZoneGroup | null> {
    return (await this.kv.get<ZoneGroup>(K.group(id))).value;
  }

  async groupsOf(userId: string): Promise<ZoneGroup[]> {
    const ids: string[] = [];
    for await (const e of this.kv.list({ prefix: K.groups(userId) })) ids.push(String(e.key[3]));
    const out: ZoneGroup[] = [];
    for (let i = 0; i < ids.length; i += 10) {
      const got = await this.kv.getMany<ZoneGroup[]>(ids.slice(i, i + 10).map(K.group));
      for (const g of got) if (g.value) out.push(g.value);
    }
    return out;
  }

  async saveGroup(g: ZoneGroup): Promise<void> {
    await this.kv.atomic().set(K.group(g.id), g).set(K.groupOf(g.userId, g.id), true).commit();
  }

  async removeGroup(g: ZoneGroup): Promise<void> {
    await this.kv.atomic().delete(K.group(g.id)).delete(K.groupOf(g.userId, g.id)).commit();
  }
}
