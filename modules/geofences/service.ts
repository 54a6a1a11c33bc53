import type { z } from "zod";
import { BizError } from "../../lib/errors.ts";
import type { Session } from "../../lib/http/env.ts";
import type { AccessGuard } from "../accounts/access.ts";
import type { RuleCommands } from "../commands/rule_commands.ts";
import type { DeviceDirectory } from "../devices/directory.ts";
import { type BBox, bbox } from "./geometry.ts";
import { defaultGroupId, type Zone, ZONE_LIMITS, type ZoneGroup, type ZoneKind } from "./model.ts";
import type { groupBody, listBody, zoneBody } from "./schemas.ts";
import type { GeofenceStore } from "./store.ts";

const LIMIT_ERRORS = {
  fence: "fenceLimitExceeded",
  landmark: "landmarkLimitExceeded",
  blackCar: "blackCarLimitExceeded",
} as const;

/** A zone with its bounding box, as the alert engine scans it. */
export interface IndexedZone {
  zone: Zone;
  box: BBox;
}

/**
 * Fences, landmarks, black-car addresses and their groups. Keeps every zone in memory by
 * owner so the alert engine can scan an account's fences per position without a read.
 */
export class GeofenceService {
  private byUser = new Map<string, IndexedZone[]>();
  private landmarks = new Map<string, Zone[]>();
  /** Told the ids of zones written here (cluster mode's sync, geofences/zone_sync.ts). */
  onChanged: (ids: string[]) => void = () => {};

  constructor(
    private readonly store: GeofenceStore,
    private readonly access: AccessGuard,
    private readonly directory: DeviceDirectory,
    private readonly ruleCommands: RuleCommands,
  ) {}

  async load(): Promise<void> {
    this.byUser.clear();
    this.landmarks.clear();
    for (const z of await this.store.all()) this.index(z);
  }

  /** The alerting zones of an account (fences and passed black-car addresses). */
  zonesOf(userId: string): readonly IndexedZone[] {
    return this.byUser.get(userId) ?? [];
  }

  /** An account's landmarks, for addresses ("At Depot Futian", modules/geocoder). */
  landmarksOf(userId: string): readonly Zone[] {
    return this.landmarks.get(userId) ?? [];
  }

  private index(z: Zone): void {
    this.unindex(z.id, z.userId);
    if (z.kind === "landmark") {
      this.landmarks.set(z.userId, [...this.landmarksOf(z.userId), z]);
      return;
    }
    const alerting = z.kind === "fence" || (z.kind === "blackCar" && z.review === "passed");
    if (!alerting) return;
    const list = this.byUser.get(z.userId) ?? [];
    list.push({ zone: z, box: bbox(z.shape) });
    this.byUser.set(z.userId, list);
  }

  /** After a write here: into memory, and other instances told. */
  private indexChanged(z: Zone): void {
    this.index(z);
    this.onChanged([z.id]);
  }

  /** Re-reads zones another instance wrote (or removed) into memory. */
  async reload(ids: string[]): Promise<void> {
    for (const id of ids) {
      const z = await this.store.get(id);
      for (const userId of new Set([...this.byUser.keys(), ...this.landmarks.keys()])) {
        if (userId !== z?.userId) this.unindex(id, userId);
      }
      if (z) this.index(z);
    }
  }

  private unindex(id: string, userId: string): void {
    const list = this.byUser.get(userId);
    if (list) this.byUser.set(userId, list.filter((e) => e.zone.id !== id));
    const marks = this.landmarks.get(userId);
    if (marks) this.landmarks.set(userId, marks.filter((z) => z.id !== id));
  }

  /** The account a request works on: the given visible one, or the caller's own. */
  private async ownerId(session: Session, userId?: string): Promise<string> {
    if (userId) return (await this.access.visibleAccount(session, userId)).id;
    return (await this.access.caller(session)).owner.id;
  }

  /**
   * A zone the caller may touch; missing and foreign ones are refused alike (permission
   * denied, as for accounts), so another subtree cannot learn that an id exists.
   */
  async visibleZone(session: Session, id: string): Promise<Zone> {
    const z = await this.store.get(id);
    if (!z) throw new BizError("permissionDenied");
    await this.access.visibleAccount(session, z.userId);
    return z;
  }

  async list(session: Session, q: z.infer<typeof listBody>) {
    const userId = await this.ownerId(session, q.userId);
    const keyword = q.keyword?.toLowerCase();
    const all = (await this.store.ofUser(userId, q.kind)).filter((z) =>
      (!q.groupId || z.groupId === q.groupId) &&
      (!q.review || z.review === q.review) &&
      (!keyword || z.name.toLowerCase().includes(keyword))
    ).sort((a, b) => b.createdAt.localeCompare(a.createdAt));
    const start = (q.pageNum - 1) * q.pageSize;
    return {
      total: all.length,
      limit: ZONE_LIMITS[q.kind],
      list: all.slice(start, start + q.pageSize),
    };
  }

  async save(session: Session, body: z.infer<typeof zoneBody>): Promise<Zone> {
    const now = new Date().toISOString();
    const existing = body.id ? await this.visibleZone(session, body.id) : null;
    if (existing && existing.kind !== body.kind) {
      throw new BizError("illegalParameter", { field: "kind" });
    }
    if (existing?.kind === "blackCar" && existing.review === "passed") {
      throw new BizError("blackCarPassedLocked");
    }
    const userId = existing?.userId ?? await this.ownerId(session, body.userId);
    // A new or changed command passes the send policy of the caller (modules/commands);
    // a kept one still needs the right to send when its devices may change.
    if (body.command && body.command !== existing?.command) {
      await this.ruleCommands.assertMaySave(await this.access.caller(session), {
        text: body.command,
        field: "command",
        password: body.password,
      });
    } else if (!sameSet(body.imeis, existing?.imeis ?? [])) {
      this.ruleCommands.assertMayRetarget(await this.access.caller(session), body.command);
    }
    const groupId = await this.groupFor(session, userId, body.groupId);
    await this.assertBindable(session, userId, body.imeis);
    const zone: Zone = {
      id: existing?.id ?? crypto.randomUUID(),
      kind: body.kind,
      userId,
      name: body.name,
      description: body.description,
      groupId,
      shape: body.shape,
      color: body.color,
      enterAlert: body.enterAlert,
      exitAlert: body.exitAlert,
      notInAlert: body.notInAlert,
      notOutAlert: body.notOutAlert,
      stayDays: body.stayDays,
      command: body.command,
      emailAlert: body.emailAlert,
      imeis: [...new Set(body.imeis)],
      // An edited black-car address goes back to review.
      review: body.kind === "blackCar" ? "reviewing" : null,
      createdAt: existing?.createdAt ?? now,
      updatedAt: now,
    };
    if (!await this.store.save(zone, ZONE_LIMITS[zone.kind])) {
      throw new BizError(LIMIT_ERRORS[zone.kind], { max: ZONE_LIMITS[zone.kind] });
    }
    this.indexChanged(zone);
    return zone;
  }

  async remove(session: Session, id: string): Promise<void> {
    const z = await this.visibleZone(session, id);
    await this.store.remove(z);
    this.unindex(z.id, z.userId);
    this.onChanged([z.id]);
  }

  async bind(session: Session, id: string, imeis: string[]): Promise<Zone> {
    const z = await this.visibleZone(session, id);
    this.ruleCommands.assertMayRetarget(await this.access.caller(session), z.command);
    await this.assertBindable(session, z.userId, imeis);
    const updated = { ...z, imeis: [...new Set(imeis)], updatedAt: new Date().toISOString() };
    await this.store.save(updated, Infinity);
    this.indexChanged(updated);
    return updated;
  }

  /** Black-car review is the platform administrator's (the root account's) job. */
  async review(session: Session, id: string, review: "passed" | "rejected"): Promise<Zone> {
    const { self } = await this.access.caller(session);
    if (self.parentId !== "" || self.virtual) throw new BizError("permissionDenied");
    const z = await this.store.get(id);
    if (!z || z.kind !== "blackCar") throw new BizError("dataNotExists");
    const updated = { ...z, review, updatedAt: new Date().toISOString() };
    await this.store.save(updated, Infinity);
    this.indexChanged(updated);
    return updated;
  }

  /**
   * Bound devices must belong to the zone's owner: the engine evaluates owners' zones only. A
   * device outside the caller's subtree answers exactly like one that does not exist, so IMEIs
   * of other tenants cannot be probed; "another user's device" is said only of visible ones.
   */
  private async assertBindable(session: Session, userId: string, imeis: string[]): Promise<void> {
    for (const imei of imeis) {
      const d = this.directory.get(imei);
      if (!d) throw new BizError("deviceNoPermission");
      if (d.userId === userId) continue;
      const visible = await this.access.visibleAccount(session, d.userId).then(
        () => true,
        () => false,
      );
      if (!visible) throw new BizError("deviceNoPermission");
      throw new BizError("fenceDeviceOtherUser", { imei });
    }
  }

  // --- groups -------------------------------------------------------------------------

  /** The account's groups, its default group first, then sticky ones, then by name. */
  async groups(session: Session, userId?: string): Promise<(ZoneGroup & { count: number })[]> {
    const owner = await this.ownerId(session, userId);
    const groups = await this.store.groupsOf(owner);
    if (!groups.some((g) => g.isDefault)) groups.push(await this.ensureDefault(owner));
    const counts = new Map<string, number>();
    for (const z of await this.store.ofUser(owner)) {
      counts.set(z.groupId, (counts.get(z.groupId) ?? 0) + 1);
    }
    return groups
      .sort((a, b) =>
        Number(b.isDefault) - Number(a.isDefault) || Number(b.top) - Number(a.top) ||
        a.name.localeCompare(b.name)
      )
      .map((g) => ({ ...g, count: counts.get(g.id) ?? 0 }));
  }

  private async ensureDefault(userId: string): Promise<ZoneGroup> {
    const existing = await this.store.getGroup(defaultGroupId(userId));
    if (existing) return existing;
    const g: ZoneGroup = {
      id: defaultGroupId(userId),
      userId,
      name: "",
      top: true,
      isDefault: true,
      createdAt: new Date().toISOString(),
    };
    await this.store.saveGroup(g);
    return g;
  }

  /** Resolves the group a zone goes into; a group of another account is refused. */
  private async groupFor(session: Session, userId: string, groupId?: string): Promise<string> {
    if (!groupId || groupId === defaultGroupId(userId)) {
      return (await this.ensureDefault(userId)).id;
    }
    const g = await this.store.getGroup(groupId);
    // A group outside the caller's subtree answers like a missing one.
    const visible = g &&
      await this.access.visibleAccount(session, g.userId).then(() => true, () => false);
    if (!g || !visible) throw new BizError("fenceGroupError");
    if (g.userId !== userId) throw new BizError("fenceGroupOwnersDiffer");
    return g.id;
  }

  async saveGroup(session: Session, body: z.infer<typeof groupBody>): Promise<ZoneGroup> {
    const existing = body.id ? await this.store.getGroup(body.id) : null;
    // Missing and foreign groups are refused alike (see visibleZone).
    if (body.id && !existing) throw new BizError("permissionDenied");
    if (existing) await this.access.visibleAccount(session, existing.userId);
    if (existing?.isDefault) throw new BizError("defaultGroupLocked");
    const userId = existing?.userId ?? await this.ownerId(session, body.userId);
    const siblings = await this.store.groupsOf(userId);
    if (
      siblings.some((g) =>
        g.id !== existing?.id && g.name.toLowerCase() === body.name.toLowerCase()
      )
    ) {
      throw new BizError("fenceGroupNameExists");
    }
    const g: ZoneGroup = existing ? { ...existing, name: body.name } : {
      id: crypto.randomUUID(),
      userId,
      name: body.name,
      top: false,
      isDefault: false,
      createdAt: new Date().toISOString(),
    };
    await this.store.saveGroup(g);
    return g;
  }

  private async visibleGroup(session: Session, id: string): Promise<ZoneGroup> {
    const g = await this.store.getGroup(id);
    // Missing and foreign groups are refused alike (see visibleZone).
    if (!g) throw new BizError("permissionDenied");
    await this.access.visibleAccount(session, g.userId);
    return g;
  }

  async removeGroup(session: Session, id: string): Promise<void> {
    const g = await this.visibleGroup(session, id);
    if (g.isDefault) throw new BizError("defaultGroupLocked");
    if ((await this.store.ofUser(g.userId)).some((z) => z.groupId === g.id)) {
      throw new BizError("fenceGroupInUse");
    }
    await this.store.removeGroup(g);
  }

  async topGroup(session: Session, id: string, top: boolean): Promise<void> {
    const g = await this.visibleGroup(session, id);
    if (g.isDefault) throw new BizError("defaultGroupLocked");
    await this.store.saveGroup({ ...g, top });
  }

  /** Moves zones into a group; every zone must belong to the group's account. */
  async moveToGroup(session: Session, groupId: string, ids: string[]): Promise<void> {
    const g = await this.visibleGroup(session, groupId);
    const zones = await Promise.all(ids.map((id) => this.visibleZone(session, id)));
    if (zones.some((z) => z.userId !== g.userId)) throw new BizError("fenceGroupOwnersDiffer");
    for (const z of zones) {
      const moved = { ...z, groupId: g.id, updatedAt: new Date().toISOString() };
      await this.store.save(moved, Infinity);
      this.indexChanged(moved);
    }
  }

  /** Zones of one kind for a map layer (landmarks on the monitor map). */
  async mapLayer(session: Session, kind: ZoneKind, userId?: string): Promise<Zone[]> {
    const owner = await this.ownerId(session, userId);
    return await this.store.ofUser(owner, kind);
  }
}

/** True when two IMEI lists hold the same devices, whatever the order. */
function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const x = new Set(a), y = new Set(b);
  return x.size === y.size && [...x].every((v) => y.has(v));
}
