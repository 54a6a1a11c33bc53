import type { StoredPosition } from "../devices/model.ts";
import {
  FIXED_BYTES_PER_POINT,
  packBlock,
  type PositionBlock,
  splitIntoBlocks,
  unpackPoint,
} from "./codec.ts";
import {
  type DevicePoints,
  devicePoints,
  type JournalChunk,
  packJournal,
  unpackJournal,
} from "./journal.ts";
import { blockJson, pointsJson } from "./json.ts";
import { BlockIndex, type BlockMeta } from "./block_index.ts";
import type {
  BlockFormat,
  FixColumns,
  JournalWrite,
  PositionCompaction,
  PositionJournal,
  TrackJsonReader,
  TrackReader,
} from "./types.ts";

export type { JournalWrite };

/** Where a whole block's JSON is cached: its form, device, first time and versionstamp. */
function jsonCacheKey(format: BlockFormat, key: Deno.KvKey, versionstamp: string): string {
  return `${format.id}/${String(key[2])}/${String(key[3])}/${versionstamp}`;
}

/** The playback page's JSON points (json.ts). */
const PLAYBACK_FORMAT: BlockFormat = { id: "playback", block: blockJson, points: pointsJson };

/**
 * Positions in two tiers:
 *  journal  seq → the positions of one gateway commit, many devices packed together
 *           (one or two values per commit: the write path the gateway's throughput needs)
 *  block    imei, firstTime → many positions of one device packed (cheap reads)
 * Compaction moves journal chunks older than COMPACT_AFTER_MS into the devices' blocks,
 * appending to each device's last block while it has room. Which chunks hold a device's
 * points is kept in memory (rebuilt from the journal at start-up), so a read of recent
 * points touches only those chunks.
 */
const K = {
  /**
   * One chunk. Cluster mode adds the writing instance (several write at once, each with its
   * own clock-based seqs): ["pos","jnl",seq,instanceId] still sorts by seq, so compaction's
   * "committed before the cutoff" range is the same for both shapes.
   */
  journal: (seq: number, writer?: string | null): Deno.KvKey =>
    writer ? ["pos", "jnl", seq, writer] : ["pos", "jnl", seq],
  journalPrefix: ["pos", "jnl"],
  block: (imei: string, first: number) => ["pos", "blk", imei, first],
  blockPrefix: (imei: string) => ["pos", "blk", imei],
};

/** Journal chunks older than this are packed into blocks. */
export const COMPACT_AFTER_MS = 2 * 60_000;
/**
 * A compaction round reads journal chunks until it holds this many points (or chunks), then
 * merges, writes and deletes them. Rounds are sized by points because chunk sizes vary
 * (a commit under light load holds a few positions, under heavy load thousands), and large
 * rounds rewrite each device's reopened last block less often; the merging yields to the
 * event loop every DEVICES_PER_SLICE devices so ingest keeps flowing meanwhile.
 */
const COMPACT_POINTS_PER_ROUND = 100_000;
const COMPACT_CHUNKS_PER_ROUND = 20_000;
/** Devices merged between two yields to the event loop during compaction. */
const DEVICES_PER_SLICE = 500;
/**
 * A device's last block is reopened for appending only while it is below this size: each
 * round rewrites it, so the bound keeps that rewriting to a few times the data.
 */
const REOPEN_BELOW_BYTES = 16 * 1024;
/** JSON of whole blocks kept for repeated playback of the same track (bounded, LRU). */
const JSON_CACHE_BYTES = 128 * 1024 * 1024;

/** What a commit journaled; handed back to `journaled` once the commit succeeded. */
export class PositionStore
  implements PositionJournal, PositionCompaction, TrackReader, TrackJsonReader {
  private jsonCache = new Map<string, Uint8Array>();
  private jsonCacheBytes = 0;
  /** The blocks of each device's last JSON read (block_index.ts). */
  private blockIndex = new BlockIndex();
  /** imei → seqs of the journal chunks holding its points not yet packed, ascending. */
  private journalIndex = new Map<string, number[]>();
  /** Each device's last block (null: none yet), learned by compaction. */
  private tails = new Map<string, TailInfo | null>();
  private compacting: Promise<unknown> = Promise.resolve();
  private lastSeq = 0;
  /**
   * Cluster mode: seq → the instances whose chunks carry it (almost always one), for the
   * chunks' keys. Empty in single mode, where a seq is the whole key.
   */
  private writersOf = new Map<number, string[]>();
  /**
   * Cluster mode only (positions/store_sync.ts): told each committed journal write and the
   * devices whose blocks were written here, so other instances' reads find them. Null in single
   * mode: no work per commit.
   */
  onJournaled: ((w: JournalWrite) => void) | null = null;
  onBlocksWritten: ((imeis: string[]) => void) | null = null;

  /**
   * `writer`: this instance's id in cluster mode (journal keys carry it, so instances writing
   * at once never share a key); null in single mode (today's keys).
   */
  constructor(private readonly kv: Deno.Kv, private readonly writer: string | null = null) {}

  /**
   * Opens the ingest's group commit: one KV commit the stores fill (journal chunks here,
   * alert records through AlertStore.addTo), so a batch of positions stays one write.
   */
  openCommit(): Deno.AtomicOperation {
    return this.kv.atomic();
  }

  /**
   * Adds a commit's positions to the operation as journal chunks. Call `journaled` with the
   * result after the commit succeeded, so reads find the points.
   */
  addJournal(op: Deno.AtomicOperation, entries: DevicePoints[], at: number): JournalWrite {
    const chunks = packJournal(entries, at);
    const seqs = chunks.map(() => this.nextSeq());
    chunks.forEach((c, i) => op.set(K.journal(seqs[i], this.writer), c));
    return this.writer ? { seqs, chunks, writer: this.writer } : { seqs, chunks };
  }

  journaled(w: JournalWrite): void {
    w.chunks.forEach((c, i) => this.indexChunk(c, w.seqs[i], w.writer));
    this.onJournaled?.(w);
  }

  /** Another instance journaled points of these devices under `seq` (cluster mode). */
  indexElsewhere(seq: number, imeis: string[], writer?: string | null): void {
    if (writer) this.noteWriter(seq, writer);
    for (const imei of imeis) this.indexDevice(imei, seq);
  }

  /** Another instance wrote these devices' blocks: what this one remembers of them is stale. */
  blocksWrittenElsewhere(imeis: string[]): void {
    for (const imei of imeis) {
      this.blockIndex.changed(imei);
      this.tails.delete(imei);
    }
  }

  /** Increasing across restarts: microseconds of the clock, or one more than the last. */
  private nextSeq(): number {
    this.lastSeq = Math.max(Date.now() * 1000, this.lastSeq + 1);
    return this.lastSeq;
  }

  /** Notes the chunk under each device it holds points of. */
  private indexChunk(chunk: JournalChunk, seq: number, writer?: string | null): void {
    if (writer) this.noteWriter(seq, writer);
    chunk.imeis.forEach((imei, d) => {
      if (chunk.counts[d] > 0) this.indexDevice(imei, seq);
    });
  }

  private noteWriter(seq: number, writer: string): void {
    const writers = this.writersOf.get(seq);
    if (!writers) this.writersOf.set(seq, [writer]);
    else if (!writers.includes(writer)) writers.push(writer);
  }

  /** The keys of the chunks under a seq: one, unless two instances wrote in the same µs. */
  private journalKeys(seq: number): Deno.KvKey[] {
    const writers = this.writersOf.get(seq);
    return writers ? writers.map((w) => K.journal(seq, w)) : [K.journal(seq)];
  }

  /** A chunk was packed (or found gone): forget its writer; true when no chunk of seq is left. */
  private forgetChunk(key: Deno.KvKey): boolean {
    const seq = key[2] as number, writer = key[3] as string | undefined;
    const writers = this.writersOf.get(seq);
    if (!writers) return true;
    const left = writers.filter((w) => w !== writer);
    if (left.length) this.writersOf.set(seq, left);
    else this.writersOf.delete(seq);
    return !left.length;
  }

  private indexDevice(imei: string, seq: number): void {
    const seqs = this.journalIndex.get(imei);
    if (!seqs) return void this.journalIndex.set(imei, [seq]);
    if (seqs.at(-1) === seq) return;
    seqs.push(seq);
    // Two commits may finish out of order.
    if (seqs.length > 1 && seqs[seqs.length - 2] > seq) seqs.sort((a, b) => a - b);
  }

  /**
   * Rebuilds the in-memory index from the journal (start-up) and hands every chunk, oldest
   * first, to `onChunk` so the gateway can bring device states up to date after a crash
   * (states are written lazily; the journal holds everything they were derived from).
   */
  async loadJournal(onChunk: (chunk: JournalChunk) => void = () => {}): Promise<number> {
    let n = 0;
    for await (
      const e of this.kv.list<JournalChunk>({ prefix: K.journalPrefix }, { batchSize: 100 })
    ) {
      const seq = e.key[2] as number;
      this.lastSeq = Math.max(this.lastSeq, seq);
      this.indexChunk(e.value, seq, e.key[3] as string | undefined);
      onChunk(e.value);
      n++;
    }
    return n;
  }

  private unindexPacked(imei: string, seq: number): void {
    const left = (this.journalIndex.get(imei) ?? []).filter((s) => s !== seq);
    if (left.length) this.journalIndex.set(imei, left);
    else this.journalIndex.delete(imei);
  }

  /** Points of one device still in the journal, from ≤ time ≤ to, in time order. */
  private async journalRange(imei: string, from: number, to: number): Promise<StoredPosition[]> {
    const seqs = [...(this.journalIndex.get(imei) ?? [])];
    const out: StoredPosition[] = [];
    for (let i = 0; i < seqs.length; i += 10) {
      const entries = await this.kv.getMany<JournalChunk[]>(
        seqs.slice(i, i + 10).flatMap((seq) => this.journalKeys(seq)),
      );
      for (const e of entries) {
        // Null when compaction packed the chunk meanwhile: its points are in blocks, which
        // the callers read after the journal. (Another instance's compaction: forget it.)
        if (!e.value) {
          if (this.forgetChunk(e.key)) this.unindexPacked(imei, e.key[2] as number);
          continue;
        }
        for (const p of devicePoints(e.value, imei)) {
          if (p.time >= from && p.time <= to) out.push(p);
        }
      }
    }
    return mergeByTime([], out);
  }

  /** Points of one device with from ≤ time ≤ to, in time order, each fix (time and place) once. */
  async range(imei: string, from: number, to: number): Promise<StoredPosition[]> {
    // Journal before blocks: a compaction finishing in between then shows the points twice
    // (merged away), never not at all.
    const recent = await this.journalRange(imei, from, to);
    const out: StoredPosition[] = [];
    for (const { value: b } of await this.blocksOverlapping(imei, from, to)) {
      for (let i = 0; i < b.n; i++) {
        const t = b.time[i];
        if (t >= from && t <= to) out.push(unpackPoint(b, i));
      }
    }
    return mergeByTime(out, recent);
  }

  /**
   * The times of `range`'s points whose position type passes `accept`, ascending, read from
   * the blocks' columns without building points (a fix both in a block and still in the
   * journal counts once, as in `range`).
   */
  async fixTimes(
    imei: string,
    from: number,
    to: number,
    accept: (posType: number) => boolean = () => true,
  ): Promise<Float64Array> {
    const recent = (await this.journalRange(imei, from, to)).filter((p) => accept(p.posType));
    const recentTimes = new Set(recent.map((p) => p.time));
    const recentFixes = new Set(recent.map(fixKey));
    const times: number[] = [];
    for (const { value: b } of await this.blocksOverlapping(imei, from, to)) {
      for (let i = 0; i < b.n; i++) {
        const t = b.time[i];
        if (t < from || t > to || !accept(b.posType[i])) continue;
        if (recentTimes.has(t) && recentFixes.has(`${t}/${b.lat[i]}/${b.lng[i]}`)) continue;
        times.push(t);
      }
    }
    for (const p of recent) times.push(p.time);
    return Float64Array.from(times).sort();
  }

  /**
   * `range`'s valid fixes as columns (time, speed, lat, lng), read from the blocks' columns
   * without building points; a fix both in a block and in the journal counts once.
   */
  async validFixes(imei: string, from: number, to: number): Promise<FixColumns> {
    const recent = (await this.journalRange(imei, from, to)).filter((p) => p.valid);
    const recentFixes = new Set(recent.map(fixKey));
    const blocks = (await this.blocksOverlapping(imei, from, to)).map((e) => e.value);
    const keep = (b: PositionBlock, i: number) =>
      b.time[i] >= from && b.time[i] <= to && (b.flags[i] & 1) === 1 &&
      !(recentFixes.size && recentFixes.has(`${b.time[i]}/${b.lat[i]}/${b.lng[i]}`));
    let n = recent.length;
    for (const b of blocks) for (let i = 0; i < b.n; i++) if (keep(b, i)) n++;
    const f: FixColumns = {
      length: n,
      time: new Float64Array(n),
      speed: new Float32Array(n),
      lat: new Float64Array(n),
      lng: new Float64Array(n),
    };
    let k = 0;
    const put = (time: number, speed: number, lat: number, lng: number) => {
      f.time[k] = time;
      f.speed[k] = speed;
      f.lat[k] = lat;
      f.lng[k++] = lng;
    };
    for (const b of blocks) {
      for (let i = 0; i < b.n; i++) if (keep(b, i)) put(b.time[i], b.speed[i], b.lat[i], b.lng[i]);
    }
    const lastBlockTime = k ? f.time[k - 1] : -Infinity;
    for (const p of recent) put(p.time, p.speed, p.lat, p.lng);
    // Late points still in the journal interleave with the blocks: put them in time order.
    return recent.length && recent[0].time < lastBlockTime ? sortedColumns(f) : f;
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

  /** The same points as `range`, as the comma-joined JSON objects of the playback answer. */
  async rangeJson(imei: string, from: number, to: number): Promise<string> {
    const decoder = new TextDecoder();
    return [...await this.rangeJsonParts(imei, from, to)].map((p) => decoder.decode(p)).join(",");
  }

  /**
   * `rangeJson` as UTF-8 fragments to be joined with commas, ready to stream. The points are
   * read at once; each block's JSON is written only when the reader gets to it (or taken from
   * a cache keyed by the block's versionstamp), so the answer starts going out while the rest
   * of a month is still being written, and a repeated playback encodes nothing.
   */
  rangeJsonParts(imei: string, from: number, to: number): Promise<Iterable<Uint8Array>> {
    return this.rangeParts(imei, from, to, PLAYBACK_FORMAT);
  }

  /**
   * The same points in another JSON form (`format`: the Open API's track points), built
   * the same way: whole blocks' JSON cached by format and versionstamp, the rest written.
   * Fragments are joined with commas; an empty one is never yielded.
   */
  async rangeParts(
    imei: string,
    from: number,
    to: number,
    format: BlockFormat,
  ): Promise<Iterable<Uint8Array>> {
    const recent = await this.journalRange(imei, from, to);
    const known = this.blockIndex.covering(imei, from, to);
    if (known && !(recent.length && recent[0].time <= (known.at(-1)?.last ?? -Infinity))) {
      const parts = await this.indexedParts(known, recent, from, to, format);
      if (parts) return parts;
    }
    const gen = this.blockIndex.generation(imei);
    const blocks = await this.blocksOverlapping(imei, from, to);
    this.blockIndex.remember(
      imei,
      gen,
      from,
      to,
      blocks.map((e) => ({
        key: e.key,
        first: e.value.time[0],
        last: e.value.time[e.value.n - 1],
        versionstamp: e.versionstamp,
      })),
    );
    const lastBlockTime = blocks.length
      ? blocks[blocks.length - 1].value.time[blocks[blocks.length - 1].value.n - 1]
      : -Infinity;
    if (recent.length && recent[0].time <= lastBlockTime) {
      // Late points not yet packed interleave with blocks: take the merging path.
      const all = await this.range(imei, from, to);
      const json = all.length ? format.points(all) : null;
      return json?.length ? [json] : [];
    }
    return this.blockParts(blocks, recent, from, to, format);
  }

  private *blockParts(
    blocks: Deno.KvEntry<PositionBlock>[],
    recent: StoredPosition[],
    from: number,
    to: number,
    format: BlockFormat,
  ): Generator<Uint8Array> {
    for (const e of blocks) {
      const b = e.value;
      const whole = b.time[0] >= from && b.time[b.n - 1] <= to;
      const part = whole ? this.cachedBlockJson(e, format) : format.block(b, from, to);
      if (part.length) yield part;
    }
    if (recent.length) {
      const part = format.points(recent);
      if (part.length) yield part;
    }
  }

  /**
   * The parts from remembered blocks: whole blocks' JSON from the cache, the values of the
   * others read by key. Null when a block changed after all (its versionstamp differs).
   */
  private async indexedParts(
    known: BlockMeta[],
    recent: StoredPosition[],
    from: number,
    to: number,
    format: BlockFormat,
  ): Promise<Uint8Array[] | null> {
    const parts: (Uint8Array | BlockMeta)[] = known.map((m) => {
      const whole = m.first >= from && m.last <= to;
      return (whole && this.jsonCacheHit(jsonCacheKey(format, m.key, m.versionstamp))) || m;
    });
    const missing = parts.filter((p): p is BlockMeta => !(p instanceof Uint8Array));
    const read = new Map<BlockMeta, Deno.KvEntryMaybe<PositionBlock>>();
    for (let i = 0; i < missing.length; i += 10) {
      const batch = missing.slice(i, i + 10);
      const got = await this.kv.getMany<PositionBlock[]>(batch.map((m) => m.key));
      batch.forEach((m, k) => read.set(m, got[k]));
    }
    const out: Uint8Array[] = [];
    for (const p of parts) {
      if (p instanceof Uint8Array) {
        if (p.length) out.push(p);
        continue;
      }
      const e = read.get(p)!;
      if (e.versionstamp !== p.versionstamp || !e.value) return null;
      const whole = p.first >= from && p.last <= to;
      const part = whole
        ? this.cachedBlockJson(e as Deno.KvEntry<PositionBlock>, format)
        : format.block(e.value, from, to);
      if (part.length) out.push(part);
    }
    if (recent.length) {
      const part = format.points(recent);
      if (part.length) out.push(part);
    }
    return out;
  }

  /** A cached block JSON, marked most recently used; undefined when not cached. */
  private jsonCacheHit(key: string): Uint8Array | undefined {
    const hit = this.jsonCache.get(key);
    if (hit !== undefined) {
      this.jsonCache.delete(key);
      this.jsonCache.set(key, hit); // most recently used last
    }
    return hit;
  }

  private cachedBlockJson(e: Deno.KvEntry<PositionBlock>, format: BlockFormat): Uint8Array {
    const key = jsonCacheKey(format, e.key, e.versionstamp);
    const hit = this.jsonCacheHit(key);
    if (hit !== undefined) return hit;
    const json = format.block(e.value, -Infinity, Infinity);
    this.jsonCache.set(key, json);
    // Counted by the memory held: the JSON is a view of a slightly larger buffer.
    this.jsonCacheBytes += json.buffer.byteLength;
    for (const [k, v] of this.jsonCache) {
      if (this.jsonCacheBytes <= JSON_CACHE_BYTES) break;
      this.jsonCache.delete(k);
      this.jsonCacheBytes -= v.buffer.byteLength;
    }
    return json;
  }

  /**
   * Packs journal chunks committed before the cutoff into the devices' blocks; returns how
   * many points moved. Run by the scheduler every minute; also safe to run after a crash
   * mid-way (blocks are written before chunks are deleted, and merging drops duplicates).
   */
  compactAll(cutoff = Date.now() - COMPACT_AFTER_MS): Promise<number> {
    // One compaction at a time: two rounds reopening the same last block would each write
    // it without the other's points. A call while one runs waits for it, then runs.
    const run = this.compacting.then(() => this.compactJournal(cutoff));
    this.compacting = run.catch(() => {});
    return run;
  }

  private async compactJournal(cutoff: number): Promise<number> {
    let moved = 0;
    while (true) {
      const entries: Deno.KvEntry<JournalChunk>[] = [];
      const it = this.kv.list<JournalChunk>(
        // Chunks committed in the cutoff's millisecond or before (seqs are clock µs).
        { prefix: K.journalPrefix, end: K.journal((cutoff + 1) * 1000) },
        { limit: COMPACT_CHUNKS_PER_ROUND, batchSize: 500 },
      );
      let points = 0, full = false;
      for await (const e of it) {
        entries.push(e);
        points += e.value.block.n;
        if (points >= COMPACT_POINTS_PER_ROUND || entries.length >= COMPACT_CHUNKS_PER_ROUND) {
          full = true;
          break;
        }
      }
      if (!entries.length) return moved;
      const byDevice = new Map<string, StoredPosition[]>();
      for (const e of entries) {
        for (const { imei, points } of unpackJournal(e.value)) {
          if (!points.length) continue; // readings only
          const list = byDevice.get(imei);
          if (list) list.push(...points);
          else byDevice.set(imei, points);
          moved += points.length;
        }
      }
      await this.packIntoBlocks(byDevice);
      for (let i = 0; i < entries.length; i += 500) {
        const del = this.kv.atomic();
        for (const e of entries.slice(i, i + 500)) del.delete(e.key);
        await del.commit();
      }
      // A seq is packed once no chunk under it is left (another writer's may be, rarely).
      const packed = new Set(
        entries.filter((e) => this.forgetChunk(e.key)).map((e) => e.key[2] as number),
      );
      for (const imei of byDevice.keys()) {
        const left = (this.journalIndex.get(imei) ?? []).filter((s) => !packed.has(s));
        if (left.length) this.journalIndex.set(imei, left);
        else this.journalIndex.delete(imei);
      }
      if (!full) return moved;
    }
  }

  /**
   * Moves one round of journal points into blocks. The usual case, points newer than the
   * device's last block, touches only that block: it is reopened while small (so a device
   * reporting slowly still fills blocks, at a bounded rewrite cost) and otherwise a new block
   * starts. The blocks of many devices are written together in a few atomic operations.
   * Late points (older than the last block's end) take the merging path per device.
   */
  private async packIntoBlocks(byDevice: Map<string, StoredPosition[]>): Promise<void> {
    const writes = new BlockWrites(this.kv);
    const reopen: { imei: string; points: StoredPosition[]; tail: TailInfo }[] = [];
    await this.loadTails([...byDevice.keys()]);
    let planned = 0;
    for (const [imei, points] of byDevice) {
      if (++planned % DEVICES_PER_SLICE === 0) await new Promise((r) => setTimeout(r, 0));
      const sorted = mergeByTime([], points);
      const tail = this.tails.get(imei) ?? null;
      if (tail && sorted[0].time <= tail.last) {
        await this.mergeIntoBlocks(imei, sorted, writes);
      } else if (tail && tail.bytes < REOPEN_BELOW_BYTES) {
        reopen.push({ imei, points: sorted, tail });
      } else {
        this.planBlocks(imei, sorted, [], writes);
      }
    }
    for (let i = 0; i < reopen.length; i += 10) {
      const part = reopen.slice(i, i + 10);
      const tails = await this.kv.getMany<PositionBlock[]>(
        part.map((r) => K.block(r.imei, r.tail.first)),
      );
      part.forEach((r, k) => {
        const entry = tails[k];
        const old = entry.value ? unpackAll(entry.value) : [];
        this.planBlocks(r.imei, mergeByTime(old, r.points), entry.value ? [entry.key] : [], writes);
      });
    }
    await writes.commit();
    for (const imei of byDevice.keys()) this.blockIndex.changed(imei);
    this.onBlocksWritten?.([...byDevice.keys()]);
  }

  /** Late points: merged with every block they fall into (and the one before). */
  private async mergeIntoBlocks(
    imei: string,
    sorted: StoredPosition[],
    writes: BlockWrites,
  ): Promise<void> {
    const first = sorted[0].time, last = sorted[sorted.length - 1].time;
    const existing = await this.blocksOverlapping(imei, first, last);
    const merged = mergeByTime(existing.flatMap((e) => unpackAll(e.value)), sorted);
    this.planBlocks(imei, merged, existing.map((e) => e.key), writes);
    // The device's last block may have changed key: look it up again next round.
    this.tails.delete(imei);
  }

  /** Queues the blocks of a merged run, and the deletion of replaced blocks not rewritten. */
  private planBlocks(
    imei: string,
    merged: StoredPosition[],
    replaced: Deno.KvKey[],
    writes: BlockWrites,
  ): void {
    const written = new Set<number>();
    for (const run of splitIntoBlocks(merged)) {
      const block = packBlock(run);
      const bytes = blockBytes(block);
      writes.set(K.block(imei, run[0].time), block, bytes);
      written.add(run[0].time);
      this.tails.set(imei, { first: run[0].time, last: run[run.length - 1].time, bytes });
    }
    for (const k of replaced) if (!written.has(k[3] as number)) writes.delete(k);
  }

  /** Learns the last block of devices not seen yet (one lookup per device and process). */
  private async loadTails(imeis: string[]): Promise<void> {
    const unknown = imeis.filter((imei) => !this.tails.has(imei));
    for (let i = 0; i < unknown.length; i += 50) {
      await Promise.all(
        unknown.slice(i, i + 50).map(async (imei) => {
          let tail: TailInfo | null = null;
          const it = this.kv.list<PositionBlock>({ prefix: K.blockPrefix(imei) }, {
            reverse: true,
            limit: 1,
          });
          for await (const e of it) {
            tail = {
              first: e.key[3] as number,
              last: e.value.time[e.value.n - 1],
              bytes: blockBytes(e.value),
            };
          }
          this.tails.set(imei, tail);
        }),
      );
    }
  }

  /**
   * Deletes a device's blocks whose every point is older than `cutoff` (POSITION_RETENTION_DAYS
   * on the KV store; PostgreSQL drops whole day partitions instead). A block reaching past the
   * cutoff stays whole. Returns how many blocks went.
   */
  async dropBlocksBefore(imei: string, cutoff: number): Promise<number> {
    const expired: Deno.KvKey[] = [];
    const it = this.kv.list<PositionBlock>({
      start: K.block(imei, 0),
      end: K.block(imei, cutoff),
    }, { batchSize: 100 });
    for await (const e of it) if (e.value.time[e.value.n - 1] < cutoff) expired.push(e.key);
    for (let i = 0; i < expired.length; i += 500) {
      const del = this.kv.atomic();
      for (const k of expired.slice(i, i + 500)) del.delete(k);
      await del.commit();
    }
    if (expired.length) {
      this.blockIndex.changed(imei);
      this.tails.delete(imei);
      this.onBlocksWritten?.([imei]);
    }
    return expired.length;
  }

  /** Writes many points straight into blocks (imports and benchmarks of history). */
  async importHistory(imei: string, points: StoredPosition[]): Promise<void> {
    this.tails.delete(imei);
    const sorted = mergeByTime([], points);
    for (const run of splitIntoBlocks(sorted)) {
      await this.kv.set(K.block(imei, run[0].time), packBlock(run));
    }
    this.blockIndex.changed(imei);
    this.onBlocksWritten?.([imei]);
  }
}

interface TailInfo {
  first: number;
  last: number;
  bytes: number;
}

/** Block writes and deletions of a compaction round, committed in as few operations as fit. */
class BlockWrites {
  private sets: { key: Deno.KvKey; value: PositionBlock; bytes: number }[] = [];
  private deletes: Deno.KvKey[] = [];

  constructor(private readonly kv: Deno.Kv) {}

  set(key: Deno.KvKey, value: PositionBlock, bytes: number): void {
    this.sets.push({ key, value, bytes });
  }

  delete(key: Deno.KvKey): void {
    this.deletes.push(key);
  }

  /**
   * Writes every block, then deletes what they replace: a crash in between leaves
   * duplicates (merged away on read), never a gap.
   */
  async commit(): Promise<void> {
    let op = this.kv.atomic(), bytes = 0, count = 0;
    for (const w of this.sets) {
      // KV allows 800 KiB and 1000 mutations per operation.
      if (count && (bytes + w.bytes > 600 * 1024 || count >= 500)) {
        if (!(await op.commit()).ok) throw new Error("block write failed");
        op = this.kv.atomic(), bytes = 0, count = 0;
      }
      op.set(w.key, w.value);
      bytes += w.bytes + 100;
      count++;
    }
    if (count && !(await op.commit()).ok) throw new Error("block write failed");
    for (let i = 0; i < this.deletes.length; i += 500) {
      const del = this.kv.atomic();
      for (const k of this.deletes.slice(i, i + 500)) del.delete(k);
      await del.commit();
    }
  }
}

/** Packed size of a block, as splitIntoBlocks counts it. */
function blockBytes(b: PositionBlock): number {
  let bytes = b.n * (FIXED_BYTES_PER_POINT + 4);
  for (const a of b.attributes) bytes += a.length;
  return bytes;
}

/** The columns in time order (equal times keep their order). */
function sortedColumns(f: FixColumns): FixColumns {
  const order = Array.from({ length: f.length }, (_, i) => i)
    .sort((a, b) => f.time[a] - f.time[b] || a - b);
  return {
    length: f.length,
    time: Float64Array.from(order, (i) => f.time[i]),
    speed: Float32Array.from(order, (i) => f.speed[i]),
    lat: Float64Array.from(order, (i) => f.lat[i]),
    lng: Float64Array.from(order, (i) => f.lng[i]),
  };
}

function unpackAll(b: PositionBlock): StoredPosition[] {
  return Array.from({ length: b.n }, (_, i) => unpackPoint(b, i));
}

/**
 * Merges two lists into time order. A fix is its time and place: the same one twice (a
 * re-upload, or a point both in a block and in a journal chunk a compaction is packing) is
 * kept once, the later list's (journal, newer) copy winning. Two fixes in the same second at
 * different places are both real (devices report at sub-second rates, the protocols carry whole
 * seconds): both are kept, in the order they arrived.
 */
export function mergeByTime(a: StoredPosition[], b: StoredPosition[]): StoredPosition[] {
  const byFix = new Map<string, StoredPosition>();
  for (const p of a) byFix.set(fixKey(p), p);
  for (const p of b) byFix.set(fixKey(p), p);
  // Array.prototype.sort is stable: equal times keep their insertion order.
  return [...byFix.values()].sort((x, y) => x.time - y.time);
}

function fixKey(p: StoredPosition): string {
  return `${p.time}/${p.lat}/${p.lng}`;
}
