/**
 * Cache coherence between instances (issue 23): an instance that changes stored data some
 * module keeps in memory publishes `tp.sync.<area>` with the changed ids; every other instance
 * re-reads those ids from the store. The message carries ids only (never the data), so a lost
 * or late message is repaired by the next change or a restart, never by trusting a payload.
 *
 * Single mode: publish and subscribe do nothing (one process has one copy).
 */
import { log } from "../log.ts";
import { type Cluster, SUBJECTS } from "./types.ts";

const syncLog = log.area("cluster");

interface SyncMessage {
  /** The publishing instance: it already has the change and ignores its own message. */
  o: string;
  ids: string[];
}

export type SyncHandler = (ids: string[]) => void | Promise<void>;

export class CacheSync {
  private readonly encoder = new TextEncoder();
  private readonly decoder = new TextDecoder();

  constructor(private readonly cluster: Pick<Cluster, "mode" | "instanceId" | "link">) {}

  /** False in single mode: callers may skip work that only feeds other instances. */
  get active(): boolean {
    return this.cluster.mode === "cluster";
  }

  /** Tells the other instances these ids of `area` changed in the store. */
  publish(area: string, ids: string[]): void {
    if (!this.active || ids.length === 0) return;
    const message: SyncMessage = { o: this.cluster.instanceId, ids };
    this.cluster.link.publish(
      `${SUBJECTS.sync}.${area}`,
      this.encoder.encode(JSON.stringify(message)),
    );
  }

  /**
   * Runs `handler` for every other instance's change of `area`, one message at a time (a later
   * re-read never finishes before an earlier one and is overwritten by it). Returns the stop.
   */
  on(area: string, handler: SyncHandler): () => void {
    if (!this.active) return () => {};
    let chain: Promise<void> = Promise.resolve();
    return this.cluster.link.subscribe(`${SUBJECTS.sync}.${area}`, (data) => {
      let message: SyncMessage;
      try {
        message = JSON.parse(this.decoder.decode(data));
      } catch {
        return syncLog.warn(`unreadable ${area} sync message`);
      }
      if (message.o === this.cluster.instanceId || !Array.isArray(message.ids)) return;
      chain = chain.then(() => handler(message.ids)).catch((e) =>
        syncLog.error(`${area} sync failed`, e)
      );
    });
  }
}

/**
 * A write-through cache of stored data: it tells `onChanged` the ids it wrote, and `reload`
 * re-reads ids (another instance's writes) from the store into memory.
 */
export interface SyncedCache {
  onChanged: (ids: string[]) => void;
  reload(ids: string[]): Promise<void>;
}

/** Cluster mode: `cache`'s writes are announced on tp.sync.<area>, others' re-read. */
export function syncCache(sync: CacheSync, area: string, cache: SyncedCache): () => void {
  if (!sync.active) return () => {};
  cache.onChanged = (ids) => sync.publish(area, ids);
  return sync.on(area, (ids) => cache.reload(ids));
}
