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

/** Deno KV reads at most 10 keys per getMany; an atomic operation takes at most 1,000 mutations. */
const GET_MANY = 10;
const MUTATIONS = 500;
/** Release chunks read at once. */
const PARALLEL = 8;

export class SessionStore {
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
    const chunks: Promise<Deno.KvEntryMaybe<DeviceSession>[]>[] = [];
    for (let i = 0; i < imeis.length; i += GET_MANY) {
      chunks.push(this.kv.getMany<DeviceSession[]>(imeis.slice(i, i + GET_MANY).map(K.session)));
    }
    return (await Promise.all(chunks)).flat().map((e) => e.value);
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
   * meanwhile (even between the read and the delete) stays. A few chunks at a time.
   */
  async release(imeis: readonly string[], instanceId: string): Promise<void> {
    const chunks: string[][] = [];
    for (let i = 0; i < imeis.length; i += GET_MANY) chunks.push(imeis.slice(i, i + GET_MANY));
    for (let i = 0; i < chunks.length; i += PARALLEL) {
      await Promise.all(chunks.slice(i, i + PARALLEL).map((c) => this.releaseChunk(c, instanceId)));
    }
  }

  private async releaseChunk(imeis: string[], instanceId: string): Promise<void> {
    const entries = await this.kv.getMany<DeviceSession[]>(imeis.map(K.session));
    const ours = entries.filter((e) => e.value?.instanceId === instanceId);
    if (!ours.length) return;
    const op = this.kv.atomic();
    for (const e of ours) op.check(e).delete(e.key);
    if ((await op.commit()).ok) return;
    // Another instance claimed one of them: delete the others one by one.
    for (const e of ours) await this.kv.atomic().check(e).delete(e.key).commit();
  }
}
