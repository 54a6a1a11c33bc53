/**
 * The motion analysis' store, the only file of modules/motion touching KV. Laid out for the
 * report reads (docs/decisions.md "Motion store"):
 *
 *   ["motion","seg",imei,kind,day,part]   the segments of one kind overlapping one UTC day,
 *                                         packed (part 0, spilling to 1, 2… past ~40 KB);
 *                                         a segment over several days is in each of them
 *   ["motion","month",imei,"YYYY-MM"]     the final day summaries of one device-month (≤ 31)
 *   ["motion","ckpt",imei]                the analyzer checkpoint (restart continues from it)
 *   ["motion","end",imei,day]             the analyzer state at the end of a day (recompute
 *                                         of the next day starts from it)
 *   ["motion","rules",userId]             an account's rules
 *   ["motion","mark",imei]                days waiting to be recomputed (late uploads, rules)
 *
 * A trips report of one device over a month is one list of ≤ 31 small values; daily mileage of
 * three months is three gets. Segments are stored without their imei (the key has it).
 */
import type { AnalyzerState } from "./analyzer.ts";
import type { DaySummary, MotionRules, SegmentKind, SegmentKinds } from "./types.ts";

const K = {
  seg: (imei: string, kind: SegmentKind, day: string, part: number) => [
    "motion",
    "seg",
    imei,
    kind,
    day,
    part,
  ],
  segDay: (imei: string, kind: SegmentKind, day: string) => ["motion", "seg", imei, kind, day],
  month: (imei: string, month: string) => ["motion", "month", imei, month],
  ckpt: (imei: string) => ["motion", "ckpt", imei],
  ckptPrefix: ["motion", "ckpt"],
  end: (imei: string, day: string) => ["motion", "end", imei, day],
  rules: (userId: string) => ["motion", "rules", userId],
  rulesPrefix: ["motion", "rules"],
  mark: (imei: string) => ["motion", "mark", imei],
  markPrefix: ["motion", "mark"],
};

/** Serialized bytes one segment part may hold (KV values are limited to 64 KiB). */
const PART_BYTES = 40_000;
/** Day-end states older than this are dropped by KV (31-day rules recompute + 7-day start). */
export const DAY_END_KEEP_DAYS = 40;
/** KV allows 1000 mutations and 800 KiB per atomic operation; stay well below. */
const OP_MUTATIONS = 400;
const OP_BYTES = 500_000;

/** Any stored segment (of the kind its key names); the imei is added back on read. */
export type AnySegmentOf<K extends SegmentKind = SegmentKind> = SegmentKinds[K];

/** Segments to put into one device-day of one kind. */
export interface SegmentWrite {
  imei: string;
  kind: SegmentKind;
  day: string;
  segments: AnySegmentOf[];
  /** True: the day's segments of this kind become exactly these (a recompute). */
  replace: boolean;
}

/** Where a device's live analysis stands (written with the segments it closed). */
export interface Checkpoint {
  v: 1;
  userId: string;
  /** Time of the newest point pushed. */
  lastTime: number;
  /** UTC day of that point. */
  day: string;
  analyzer: AnalyzerState;
  /** Rules version (their changedAt) the analyzer runs with. */
  rulesAt: number;
  /** Open connectivity interval. */
  conn: { online: boolean; since: number } | null;
  /** Open fence visits by fence id. */
  fences: Record<string, { name: string; since: number }>;
}

export interface DayEnd {
  state: AnalyzerState;
  lastTime: number;
}

export interface RulesRecord {
  rules: MotionRules;
  /** When they were set (epoch ms); 0 for the defaults. */
  changedAt: number;
}

/** Days of one device waiting to be recomputed. */
export interface RecomputeMark {
  userId: string;
  /** Single days touched by late points (recomputed alone). */
  days: string[];
  /** Rebuild from this day up to now (a rules change), or null. */
  from: string | null;
}

interface MonthRecord {
  v: 1;
  days: Record<string, DaySummary>;
}

/** Identity of a segment within its device and kind: a newer copy replaces the older. */
export function segmentId(s: AnySegmentOf): string {
  return "fenceId" in s ? `${s.fenceId}/${s.start}` : String(s.start);
}

export class MotionStore {
  /** Read-modify-writes of segment days run one at a time (flush and recompute). */
  private lock: Promise<unknown> = Promise.resolve();
  /** imei/kind/day → that record as stored, for the days from `recentFrom` on. */
  private recent = new Map<string, RecentDay>();
  private recentFrom = "";

  constructor(private readonly kv: Deno.Kv) {}

  /** Runs `fn` after every earlier exclusive run finished. */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.lock.then(fn);
    this.lock = run.catch(() => {});
    return run;
  }

  /** Stored segments of one kind overlapping the days fromDay..toDay, each once, by start. */
  async segments<K extends SegmentKind>(
    imei: string,
    kind: K,
    fromDay: string,
    toDay: string,
  ): Promise<SegmentKinds[K][]> {
    const byId = new Map<string, SegmentKinds[K]>();
    const it = this.kv.list<SegmentKinds[K][]>({
      start: K.segDay(imei, kind, fromDay),
      end: K.seg(imei, kind, toDay, Number.MAX_SAFE_INTEGER),
    }, { batchSize: 100 });
    for await (const e of it) {
      for (const s of e.value) {
        const id = segmentId(s);
        const seen = byId.get(id);
        // Copies in several days are written together; keep the longest if one lags.
        if (!seen || s.end > seen.end) byId.set(id, s);
      }
    }
    const out = [...byId.values()];
    for (const s of out) s.imei = imei;
    return out.sort((a, b) => a.start - b.start);
  }

  /**
   * Puts segments into their device-days (merging by identity unless `replace`). The days of
   * the last two UTC days are kept in memory once read or written (the live analysis appends to
   * them every flush: no read before each write); older days are read, merged and written.
   */
  async writeSegments(writes: SegmentWrite[], batch: Batch): Promise<void> {
    const merged = [...mergeWrites(writes).values()];
    const olds = await Promise.all(merged.map((w) => this.dayRecord(w)));
    for (let i = 0; i < merged.length; i++) {
      // Big flushes (a fleet's stops at once) give the event loop a turn now and then.
      if (i % 500 === 499) await new Promise((r) => setTimeout(r, 0));
      const w = merged[i], old = olds[i];
      const segments = w.replace ? mergeById([], w.segments) : mergeById(old.segments, w.segments);
      const parts = packParts(segments);
      parts.forEach((p, k) => batch.set(K.seg(w.imei, w.kind, w.day, k), p.list, p.bytes));
      for (let k = parts.length; k < old.parts; k++) batch.delete(K.seg(w.imei, w.kind, w.day, k));
      const id = `${w.imei}/${w.kind}/${w.day}`;
      if (w.day >= this.recentFrom) {
        this.recent.set(id, {
          day: w.day,
          segments: parts.flatMap((p) => p.list),
          parts: parts.length,
        });
      } else this.recent.delete(id);
    }
  }

  /** A device-day's stored segments of one kind (from memory when recent) and its part count. */
  private async dayRecord(w: SegmentWrite): Promise<RecentDay> {
    const cached = this.recent.get(`${w.imei}/${w.kind}/${w.day}`);
    if (cached) return cached;
    const segments: AnySegmentOf[] = [];
    let parts = 0;
    for await (
      const e of this.kv.list<AnySegmentOf[]>({ prefix: K.segDay(w.imei, w.kind, w.day) })
    ) {
      if (!w.replace) segments.push(...e.value);
      parts = Math.max(parts, (e.key[5] as number) + 1);
    }
    return { day: w.day, segments, parts };
  }

  /**
   * Cluster mode: the device's recent days are read again at their next write (another
   * instance wrote them while it held the device). Inside `exclusive`.
   */
  forget(imei: string): void {
    for (const id of this.recent.keys()) if (id.startsWith(`${imei}/`)) this.recent.delete(id);
  }

  /** Days before `day` are no longer kept in memory (the engine calls it every flush). */
  keepRecent(day: string): void {
    if (day === this.recentFrom) return;
    this.recentFrom = day;
    for (const [id, r] of this.recent) if (r.day < day) this.recent.delete(id);
  }

  /** Final day summaries of one device for the given months (YYYY-MM), by date. */
  async months(imei: string, months: string[]): Promise<DaySummary[]> {
    const out: DaySummary[] = [];
    for (let i = 0; i < months.length; i += 10) {
      const entries = await this.kv.getMany<MonthRecord[]>(
        months.slice(i, i + 10).map((m) => K.month(imei, m)),
      );
      for (const e of entries) {
        if (!e.value) continue;
        for (const d of Object.values(e.value.days)) {
          d.imei = imei;
          out.push(d);
        }
      }
    }
    return out.sort((a, b) => a.date < b.date ? -1 : a.date > b.date ? 1 : 0);
  }

  /** Adds (or replaces, by date) day summaries in their month records. */
  async saveDays(days: DaySummary[], batch: Batch): Promise<void> {
    const byMonth = new Map<string, { imei: string; month: string; days: DaySummary[] }>();
    for (const d of days) {
      const id = `${d.imei}/${d.date.slice(0, 7)}`;
      const g = byMonth.get(id) ?? { imei: d.imei, month: d.date.slice(0, 7), days: [] };
      g.days.push(d);
      byMonth.set(id, g);
    }
    const groups = [...byMonth.values()];
    for (let i = 0; i < groups.length; i += 10) {
      const part = groups.slice(i, i + 10);
      const entries = await this.kv.getMany<MonthRecord[]>(
        part.map((g) => K.month(g.imei, g.month)),
      );
      part.forEach((g, k) => {
        const record: MonthRecord = entries[k].value ?? { v: 1, days: {} };
        for (const d of g.days) {
          const { imei: _imei, ...stored } = d;
          record.days[d.date] = stored as DaySummary;
        }
        batch.set(K.month(g.imei, g.month), record, 200 * Object.keys(record.days).length);
      });
    }
  }

  newBatch(): Batch {
    return new Batch(this.kv);
  }

  setCheckpoint(batch: Batch, imei: string, c: Checkpoint): void {
    batch.set(K.ckpt(imei), c, 2000);
  }

  /** One device's checkpoint (cluster mode: a device taken over from another instance). */
  async checkpoint(imei: string): Promise<Checkpoint | null> {
    return (await this.kv.get<Checkpoint>(K.ckpt(imei))).value;
  }

  async *checkpoints(): AsyncGenerator<{ imei: string; checkpoint: Checkpoint }> {
    for await (const e of this.kv.list<Checkpoint>({ prefix: K.ckptPrefix }, { batchSize: 500 })) {
      yield { imei: e.key[2] as string, checkpoint: e.value };
    }
  }

  /**
   * The state at a day's end, where a recompute of a later day starts. Kept DAY_END_KEEP_DAYS
   * (a rules recompute reaches 31 days back and starts from a state at most 7 days before):
   * one per device and day would otherwise grow by ~2 KB per device every day, for ever.
   */
  setDayEnd(batch: Batch, imei: string, day: string, end: DayEnd): void {
    batch.set(K.end(imei, day), end, 2000, DAY_END_KEEP_DAYS * 86_400_000);
  }

  /** The analyzer state at the end of the latest day before `day` that has one. */
  async dayEndBefore(imei: string, day: string): Promise<{ day: string; end: DayEnd } | null> {
    const it = this.kv.list<DayEnd>({ start: K.end(imei, ""), end: K.end(imei, day) }, {
      reverse: true,
      limit: 1,
    });
    for await (const e of it) return { day: e.key[3] as string, end: e.value };
    return null;
  }

  async rulesOf(userId: string): Promise<RulesRecord | null> {
    return (await this.kv.get<RulesRecord>(K.rules(userId))).value;
  }

  async loadRules(): Promise<Map<string, RulesRecord>> {
    const out = new Map<string, RulesRecord>();
    for await (const e of this.kv.list<RulesRecord>({ prefix: K.rulesPrefix })) {
      out.set(e.key[2] as string, e.value);
    }
    return out;
  }

  /** Saves an account's rules and marks its devices for a rebuild from `from`, together. */
  async saveRules(
    userId: string,
    record: RulesRecord,
    imeis: string[],
    from: string,
  ): Promise<void> {
    const batch = new Batch(this.kv);
    batch.set(K.rules(userId), record, 500);
    const marks = await this.readMarks(imeis);
    imeis.forEach((imei, i) => {
      const m = marks[i] ?? { userId, days: [], from: null };
      m.from = m.from && m.from < from ? m.from : from;
      m.userId = userId;
      batch.set(K.mark(imei), m, 500);
    });
    await batch.commit();
  }

  /** Adds late-upload days to devices' marks (read-modify-write, inside `exclusive`). */
  async addMarkedDays(batch: Batch, days: Map<string, { userId: string; days: Set<string> }>) {
    const imeis = [...days.keys()];
    const marks = await this.readMarks(imeis);
    imeis.forEach((imei, i) => {
      const d = days.get(imei)!;
      const m = marks[i] ?? { userId: d.userId, days: [], from: null };
      m.days = [...new Set([...m.days, ...d.days])].sort();
      batch.set(K.mark(imei), m, 300 + 12 * m.days.length);
    });
  }

  private async readMarks(imeis: string[]): Promise<(RecomputeMark | null)[]> {
    const out: (RecomputeMark | null)[] = [];
    for (let i = 0; i < imeis.length; i += 10) {
      const entries = await this.kv.getMany<RecomputeMark[]>(
        imeis.slice(i, i + 10).map(K.mark),
      );
      for (const e of entries) out.push(e.value);
    }
    return out;
  }

  async *marks(): AsyncGenerator<{ imei: string; mark: RecomputeMark; stamp: string }> {
    for await (const e of this.kv.list<RecomputeMark>({ prefix: K.markPrefix })) {
      yield { imei: e.key[2] as string, mark: e.value, stamp: e.versionstamp };
    }
  }

  /** How many devices of the account are still marked for a rules recompute (cluster mode's
   * progress: marks are few, and each is deleted once worked off). */
  async rulesMarksLeft(userId: string): Promise<number> {
    let left = 0;
    for await (const { mark } of this.marks()) if (mark.from && mark.userId === userId) left++;
    return left;
  }

  /** Removes a mark unless it changed since it was read (new late points: run again). */
  async clearMark(imei: string, stamp: string): Promise<boolean> {
    const res = await this.kv.atomic().check({ key: K.mark(imei), versionstamp: stamp })
      .delete(K.mark(imei)).commit();
    return res.ok;
  }
}

/**
 * Writes committed in as few atomic operations as KV's limits allow. Not one atomic whole:
 * every write here is idempotent (segments by identity, summaries by date), so a crash
 * between two operations is repaired by replaying from the checkpoint.
 */
export class Batch {
  private ops: { key: Deno.KvKey; value?: unknown; bytes: number; expireIn?: number }[] = [];

  constructor(private readonly kv: Deno.Kv) {}

  /** `expireIn` (ms): KV removes the value after that long. */
  set(key: Deno.KvKey, value: unknown, bytes: number, expireIn?: number): void {
    this.ops.push({ key, value, bytes, expireIn });
  }

  delete(key: Deno.KvKey): void {
    this.ops.push({ key, bytes: 50 });
  }

  get size(): number {
    return this.ops.length;
  }

  async commit(): Promise<void> {
    let op = this.kv.atomic(), bytes = 0, count = 0;
    for (const w of this.ops) {
      if (count && (bytes + w.bytes > OP_BYTES || count >= OP_MUTATIONS)) {
        if (!(await op.commit()).ok) throw new Error("motion write failed");
        op = this.kv.atomic(), bytes = 0, count = 0;
      }
      if (w.value === undefined) op.delete(w.key);
      else op.set(w.key, w.value, w.expireIn ? { expireIn: w.expireIn } : undefined);
      bytes += w.bytes + 100;
      count++;
    }
    if (count && !(await op.commit()).ok) throw new Error("motion write failed");
    this.ops = [];
  }
}

/** A device-day's segments of one kind as stored (without imei), and how many values hold them. */
interface RecentDay {
  day: string;
  segments: AnySegmentOf[];
  parts: number;
}

/** One write per device-kind-day: later segments of the same identity win. */
function mergeWrites(writes: SegmentWrite[]): Map<string, SegmentWrite> {
  const out = new Map<string, SegmentWrite>();
  for (const w of writes) {
    const id = `${w.imei}/${w.kind}/${w.day}`;
    const seen = out.get(id);
    if (!seen) out.set(id, { ...w, segments: [...w.segments] });
    else {
      seen.segments = w.replace ? [...w.segments] : mergeById(seen.segments, w.segments);
      seen.replace ||= w.replace;
    }
  }
  return out;
}

function mergeById(old: AnySegmentOf[], added: AnySegmentOf[]): AnySegmentOf[] {
  const byId = new Map<string, AnySegmentOf>();
  for (const s of old) byId.set(segmentId(s), s);
  for (const s of added) byId.set(segmentId(s), s);
  return [...byId.values()].sort((a, b) => a.start - b.start);
}

/** Splits a day's segments into parts below PART_BYTES (stored without imei, kind, open). */
function packParts(segments: AnySegmentOf[]): { list: AnySegmentOf[]; bytes: number }[] {
  const parts: { list: AnySegmentOf[]; bytes: number }[] = [];
  let current: { list: AnySegmentOf[]; bytes: number } = { list: [], bytes: 0 };
  for (const s of segments) {
    const stored = "imei" in s || "kind" in s || "open" in s ? strip(s) : s;
    const bytes = serializedBytes(stored);
    if (current.list.length && current.bytes + bytes > PART_BYTES) {
      parts.push(current);
      current = { list: [], bytes: 0 };
    }
    current.list.push(stored);
    current.bytes += bytes;
  }
  if (current.list.length) parts.push(current);
  return parts;
}

function strip(s: AnySegmentOf): AnySegmentOf {
  const { imei: _imei, kind: _kind, open: _open, ...stored } = s as AnySegmentOf & {
    kind?: string;
    open?: boolean;
  };
  return stored as AnySegmentOf;
}

/** An upper estimate of a segment's serialized size (keys, doubles, UTF-8 strings). */
function serializedBytes(s: object): number {
  let n = 8;
  for (const [k, v] of Object.entries(s)) {
    n += k.length + 2 + (typeof v === "string" ? v.length * 3 + 2 : 10);
  }
  return n;
}
