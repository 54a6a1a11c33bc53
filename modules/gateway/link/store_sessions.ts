/**
 * KV keys of the cluster's device sessions (cluster mode only; single mode writes none):
 *  instance  instanceId → Heartbeat     (rewritten every few seconds; expires as a backstop)
 *  session   imei → DeviceSession       (which instance holds the device's connection)
 */
const K = {
  instance: (instanceId: string) => ["gateway", "instance", instanceId],
  instances: ["gateway", "instance"],
  session: (imei: string) => ["gateway", "session", imei],
};

export interface Heartbeat {
  /** Epoch ms on the writing instance's clock. */
  at: number;
}

export interface DeviceSession {
  instanceId: string;
  /** Epoch ms the device logged in there. */
  since: number;
}

/** Deno KV reads at most 10 keys per getMany and checks at most 100 per atomic operation. */
const KV_GET_MANY = 10;
/** PgKv takes any number: session reads start this wide (one query each). */
const WIDE_READ = 200;
/** Mutations per atomic operation (Deno KV takes at most 1,000). */
const MUTATIONS = 500;
/** Reads under way at once. */
const PARALLEL = 8;

type Entry = Deno.KvEntryMaybe<DeviceSession>;

export class SessionStore {
  /** Keys per read: wide until the store refuses (Deno KV), then Deno KV's limit. */
  private readLimit = WIDE_READ;

  constructor(private readonly kv: Deno.Kv) {}

  /** Writes this instance's heartbeat; the key disappears by itself `expireMs` after the last one. */
  async beat(instanceId: string, at: number, expireMs: number): Promise<void> {
    await this.kv.set(K.instance(instanceId), { at } satisfies Heartbeat, { expireIn: expireMs });
  }

  /** Deletes this instance's heartbeat (a clean stop: its sessions count as gone at once). */
  async forget(instanceId: string): Promise<void> {
    await this.kv.delete(K.instance(instanceId));
  }

  /** Every instance's last heartbeat. */
  async heartbeats(): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    for await (const e of this.kv.list<Heartbeat>({ prefix: K.instances })) {
      out.set(String(e.key.at(-1)), e.value.at);
    }
    return out;
  }

  async session(imei: string): Promise<DeviceSession | null> {
    return (await this.kv.get<DeviceSession>(K.session(imei))).value;
  }

  /** The sessions of many devices at once (null where none is recorded). */
  async sessions(imeis: readonly string[]): Promise<(DeviceSession | null)[]> {
    return (await this.read(imeis)).map((e) => e.value);
  }

  /** Records the devices (imei, login time) as held by `instanceId`: the newest login wins. */
  async claim(claims: readonly (readonly [string, number])[], instanceId: string): Promise<void> {
    for (let i = 0; i < claims.length; i += MUTATIONS) {
      const op = this.kv.atomic();
      for (const [imei, since] of claims.slice(i, i + MUTATIONS)) {
        op.set(K.session(imei), { instanceId, since } satisfies DeviceSession);
      }
      await op.commit();
    }
  }

  /**
   * Deletes the devices' sessions that `instanceId` still holds: one another instance claimed
   * meanwhile (even between the read and the delete) stays.
   */
  async release(imeis: readonly string[], instanceId: string): Promise<void> {
    const ours = (await this.read(imeis)).filter((e) => e.value?.instanceId === instanceId);
    const width = Math.min(this.readLimit, 100);
    const groups: Entry[][] = [];
    for (let i = 0; i < ours.length; i += width) groups.push(ours.slice(i, i + width));
    for (let i = 0; i < groups.length; i += PARALLEL) {
      await Promise.all(groups.slice(i, i + PARALLEL).map((g) => this.deleteHeld(g)));
    }
  }

  /** Deletes the entries unless changed since they were read. */
  private async deleteHeld(group: Entry[]): Promise<void> {
    const op = this.kv.atomic();
    for (const e of group) op.check(e).delete(e.key);
    if ((await op.commit()).ok) return;
    // Another instance claimed one of them: delete the others one by one.
    for (const e of group) await this.kv.atomic().check(e).delete(e.key).commit();
  }

  /** Reads the devices' session entries, in order, a few wide reads at a time. */
  private async read(imeis: readonly string[]): Promise<Entry[]> {
    const width = this.readLimit;
    const chunks: Deno.KvKey[][] = [];
    for (let i = 0; i < imeis.length; i += width) {
      chunks.push(imeis.slice(i, i + width).map(K.session));
    }
    try {
      const out: Entry[] = [];
      for (let i = 0; i < chunks.length; i += PARALLEL) {
        const wave = chunks.slice(i, i + PARALLEL).map((c) => this.kv.getMany<DeviceSession[]>(c));
        for (const entries of await Promise.all(wave)) out.push(...entries);
      }
      return out;
    } catch (e) {
      if (width === KV_GET_MANY || imeis.length <= KV_GET_MANY) throw e;
      // Deno KV refuses reads over 10 keys: read as it allows from now on.
      this.readLimit = KV_GET_MANY;
      return await this.read(imeis);
    }
  }
}
