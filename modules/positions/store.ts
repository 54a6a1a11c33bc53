import type { StoredPosition } from "../devices/model.ts";
import { packBlock, type PositionBlock, splitIntoBlocks, unpackPoint } from "./codec.ts";
import { blockJson, pointJson } from "./json.ts";

/**
 * Positions in two tiers:
 *  hot    imei, time → one position, written by the gateway's group commit (cheap inserts)
 *  block  imei, firstTime → many positions packed (written by compaction, cheap reads)
 *  dirty  imei → oldest hot time, so compaction visits only devices with hot points
 * A key per (device, fix time) makes an exact re-upload land on the same key: stored once.
 */
const K = {
  hot: (imei: string, time: number) => ["pos", "hot", imei, time],
  hotPrefix: (imei: string) => ["pos", "hot", imei],
  block: (imei: string, first: number) => ["pos", "blk", imei, first],
  blockPrefix: (imei: string) => ["pos", "blk", imei],
  dirty: (imei: string) => ["pos", "dirty", imei],
  dirtyPrefix: ["pos", "dirty"],
};

/** Hot points older than this are packed into blocks. */
export const COMPACT_AFTER_MS = 10 * 60_000;
/** JSON of whole blocks kept for repeated playback of the same track (bounded, LRU). */
const JSON_CACHE_BYTES = 128 * 1024 * 1024;

export class PositionStore {
  private jsonCache = new Map<string, Uint8Array>();
  private jsonCacheBytes = 0;

  constructor(private readonly kv: Deno.Kv) {}

  /** Adds the writes of one position to a gateway commit. */
  addTo(op: Deno.AtomicOperation, imei: string, p: StoredPosition): void {
    op.set(K.hot(imei, p.time), p);
  }

  /** Marks a device for compaction (once per commit per device). */
  markDirty(op: Deno.AtomicOperation, imei: string): void {
    op.set(K.dirty(imei), Date.now());
  }

  /** Points of one device with from ≤ time ≤ to, in time order, each fix time once. */
  async range(imei: string, from: number, to: number): Promise<StoredPosition[]> {
    const out: StoredPosition[] = [];
    for (const { value: b } of await this.blocksOverlapping(imei, from, to)) {
      for (let i = 0; i < b.n; i++) {
        const t = b.time[i];
        if (t >= from && t <= to) out.push(unpackPoint(b, i));
      }
    }
    return mergeByTime(out, await this.hotRange(imei, from, to));
  }

  /** Blocks that may hold points in [from, to]: the one starting before `from`, then those inside. */
  private async blocksOverlapping(
    imei: string,
    from: number,
    to: number,
  ): Promise<Deno.KvEntry<PositionBlock>[]> {
    const blocks: Deno.KvEntry<PositionBlock>[] = [];
    const before = this.kv.list<PositionBlock>({
      start: K.block(imei, 0),
      end: K.block(imei, from),
    }, {
      reverse: true,
      limit: 1,
    });
    for await (const e of before) if (e.value.time[e.value.n - 1] >= from) blocks.push(e);
    const inside = this.kv.list<PositionBlock>({
      start: K.block(imei, from),
      end: K.block(imei, to + 1),
    }, {
      batchSize: 500,
    });
    for await (const e of inside) blocks.push(e);
    return blocks;
  }

  private async hotRange(imei: string, from: number, to: number): Promise<StoredPosition[]> {
    const hot: StoredPosition[] = [];
    const it = this.kv.list<StoredPosition>(
      { start: K.hot(imei, from), end: K.hot(imei, to + 1) },
      {
        batchSize: 1000,
      },
    );
    for await (const e of it) hot.push(e.value);
    return hot;
  }

  /** The same points as `range`, as the comma-joined JSON objects of the playback answer. */
  async rangeJson(imei: string, from: number, to: number): Promise<string> {
    const decoder = new TextDecoder();
    return (await this.rangeJsonParts(imei, from, to)).map((p) => decoder.decode(p)).join(",");
  }

  /**
   * `rangeJson` as UTF-8 fragments to be joined with commas, ready to stream: whole blocks
   * come from a cache keyed by their versionstamp, so a repeated playback encodes nothing.
   */
  async rangeJsonParts(imei: string, from: number, to: number): Promise<Uint8Array[]> {
    const encoder = new TextEncoder();
    const blocks = await this.blocksOverlapping(imei, from, to);
    const hot = await this.hotRange(imei, from, to);
    const lastBlockTime = blocks.length
      ? blocks[blocks.length - 1].value.time[blocks[blocks.length - 1].value.n - 1]
      : -Infinity;
    if (hot.length && hot[0].time <= lastBlockTime) {
      // Late points not yet packed interleave with blocks: take the merging path.
      const all = await this.range(imei, from, to);
      return all.length ? [encoder.encode(all.map(pointJson).join(","))] : [];
    }
    const parts: Uint8Array[] = [];
    for (const e of blocks) {
      const b = e.value;
      const whole = b.time[0] >= from && b.time[b.n - 1] <= to;
      const part = whole ? this.cachedBlockJson(e) : encoder.encode(blockJson(b, from, to));
      if (part.length) parts.push(part);
    }
    if (hot.length) parts.push(encoder.encode(hot.map(pointJson).join(",")));
    return parts;
  }

  private cachedBlockJson(e: Deno.KvEntry<PositionBlock>): Uint8Array {
    const key = `${String(e.key[2])}/${String(e.key[3])}/${e.versionstamp}`;
    const hit = this.jsonCache.get(key);
    if (hit !== undefined) {
      this.jsonCache.delete(key);
      this.jsonCache.set(key, hit); // most recently used last
      return hit;
    }
    const json = new TextEncoder().encode(blockJson(e.value, -Infinity, Infinity));
    this.jsonCache.set(key, json);
    this.jsonCacheBytes += json.length;
    for (const [k, v] of this.jsonCache) {
      if (this.jsonCacheBytes <= JSON_CACHE_BYTES) break;
      this.jsonCache.delete(k);
      this.jsonCacheBytes -= v.length;
    }
    return json;
  }

  /** Packs hot points older than the cutoff into blocks; returns how many points moved. */
  async compactDevice(imei: string, cutoff = Date.now() - COMPACT_AFTER_MS): Promise<number> {
    const hot: { key: Deno.KvKey; value: StoredPosition }[] = [];
    // Bounded by the cutoff: the job runs every minute for every device with hot points, and
    // reading (and deserialising) the recent points only to stop at them stalled ingest.
    for await (
      const e of this.kv.list<StoredPosition>(
        { prefix: K.hotPrefix(imei), end: K.hot(imei, cutoff + 1) },
        { batchSize: 1000 },
      )
    ) {
      hot.push({ key: e.key, value: e.value });
    }
    if (!hot.length) return 0;
    // Late points may fall inside an existing block's span: merge with the blocks they touch.
    const first = hot[0].value.time, last = hot[hot.length - 1].value.time;
    const existing = await this.blocksOverlapping(imei, first, last);
    const merged = mergeByTime(
      existing.flatMap((e) => unpackAll(e.value)),
      hot.map((h) => h.value),
    );
    const fresh = splitIntoBlocks(merged);
    // Write every new block first, then delete what they replace: a crash in between leaves
    // duplicates (merged away on read), never a gap.
    const written = new Set<number>();
    for (const run of fresh) {
      await this.kv.set(K.block(imei, run[0].time), packBlock(run));
      written.add(run[0].time);
    }
    const stale = [
      ...hot.map((h) => h.key),
      ...existing.map((e) => e.key).filter((k) => !written.has(k[3] as number)),
    ];
    for (let j = 0; j < stale.length; j += 500) {
      const del = this.kv.atomic();
      for (const k of stale.slice(j, j + 500)) del.delete(k);
      await del.commit();
    }
    return hot.length;
  }

  /** Compacts every device with hot points; run by the scheduler. */
  async compactAll(cutoff = Date.now() - COMPACT_AFTER_MS): Promise<number> {
    let moved = 0;
    for await (const e of this.kv.list<number>({ prefix: K.dirtyPrefix })) {
      const imei = String(e.key.at(-1));
      moved += await this.compactDevice(imei, cutoff);
      // Clear the mark only if no new point arrived meanwhile and nothing hot is left.
      let left = false;
      for await (const _ of this.kv.list({ prefix: K.hotPrefix(imei) }, { limit: 1 })) left = true;
      if (!left) await this.kv.atomic().check(e).delete(e.key).commit();
    }
    return moved;
  }

  /** Writes many points straight into blocks (imports and benchmarks of history). */
  async importHistory(imei: string, points: StoredPosition[]): Promise<void> {
    const sorted = mergeByTime([], points);
    for (const run of splitIntoBlocks(sorted)) {
      await this.kv.set(K.block(imei, run[0].time), packBlock(run));
    }
  }
}

function unpackAll(b: PositionBlock): StoredPosition[] {
  return Array.from({ length: b.n }, (_, i) => unpackPoint(b, i));
}

/** Merges two lists into time order; on equal times the later list (hot, newer) wins. */
export function mergeByTime(a: StoredPosition[], b: StoredPosition[]): StoredPosition[] {
  const byTime = new Map<number, StoredPosition>();
  for (const p of a) byTime.set(p.time, p);
  for (const p of b) byTime.set(p.time, p);
  return [...byTime.values()].sort((x, y) => x.time - y.time);
}
