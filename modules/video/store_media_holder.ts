/**
 * Which instance holds a stream (cluster mode, issue 23): the JT/T 1078 connection lands on
 * whichever instance the balancer picks, and its HLS lives in that instance's memory. The
 * holder writes `(sim, channel, purpose) → instanceId` when the stream is ready and refreshes
 * it while connected; the record expires on its own when the holder dies.
 */
import type { StreamKey } from "./types.ts";

const K = {
  holder: (k: StreamKey) => ["video", "media_holder", k.sim, k.channel, k.purpose],
};

/** A record outlives its last refresh by this long (the stream's linger is 30 s). */
export const HOLDER_TTL_MS = 60_000;

export class MediaHolderStore {
  constructor(private readonly kv: Deno.Kv) {}

  async hold(key: StreamKey, instanceId: string): Promise<void> {
    await this.kv.set(K.holder(key), instanceId, { expireIn: HOLDER_TTL_MS });
  }

  async holder(key: StreamKey): Promise<string | null> {
    return (await this.kv.get<string>(K.holder(key))).value;
  }

  /** Forgets the record if it is still this instance's. */
  async release(key: StreamKey, instanceId: string): Promise<void> {
    const current = await this.kv.get<string>(K.holder(key));
    if (current.value !== instanceId) return;
    await this.kv.atomic().check(current).delete(K.holder(key)).commit();
  }
}
