/**
 * The sensor store, the only file of modules/sensors touching KV. Laid out for the reports'
 * reads (one device, one series, a range of days):
 *
 *   ["sensors","s",imei,series,day,part]  a SampleBlock of one series of one device-day; parts
 *                                         0…k are compacted blocks, larger numbers parts the
 *                                         recorder appended (its flush time), merged into
 *                                         blocks once the day is over
 *   ["sensors","e",imei,day,part]         the device-day's events (same parts scheme)
 *   ["sensors","has",imei]                the series and event kinds the device ever reported
 *   ["sensors","dirty",day,imei]          a device-day with appended parts to compact
 *
 * A month of fuel of one device is one list over ≤ 31 compacted days (one or two blocks each).
 */
import {
  BLOCK_SAMPLES,
  blocksToColumns,
  byTimeAndIndex,
  dayStart,
  packDay,
  type SampleBlock,
  unpackSamples,
} from "./codec.ts";
import type {
  SampleColumns,
  SensorEvent,
  SensorEventKind,
  SensorSample,
  SensorSeries,
} from "./types.ts";
import { SENSOR_SERIES } from "./types.ts";

const K = {
  part: (imei: string, series: SensorSeries, day: string, part: number) => [
    "sensors",
    "s",
    imei,
    series,
    day,
    part,
  ],
  seriesDay: (
    imei: string,
    series: SensorSeries,
    day: string,
  ) => ["sensors", "s", imei, series, day],
  eventPart: (imei: string, day: string, part: number) => ["sensors", "e", imei, day, part],
  eventDay: (imei: string, day: string) => ["sensors", "e", imei, day],
  has: (imei: string) => ["sensors", "has", imei],
  dirty: (day: string, imei: string) => ["sensors", "dirty", day, imei],
  dirtyPrefix: ["sensors", "dirty"],
};

/** Appended parts are numbered from here (compacted blocks stay below). */
const APPENDED_FROM = 1_000_000;
/** KV allows 1000 mutations and 800 KiB per atomic operation; stay well below. */
const OP_MUTATIONS = 300;
const OP_BYTES = 450_000;

export interface Reported {
  series: SensorSeries[];
  events: SensorEventKind[];
}

/** Samples of one series of one device-day to append. */
export interface SeriesAppend {
  imei: string;
  series: SensorSeries;
  day: string;
  samples: SensorSample[];
}

export interface EventAppend {
  imei: string;
  day: string;
  events: SensorEvent[];
}

export class SensorStore {
  private lastPart = 0;

  constructor(private readonly kv: Deno.Kv) {}

  /** A part number above every earlier one of this process and of the previous ones. */
  private nextPart(): number {
    this.lastPart = Math.max(this.lastPart + 1, APPENDED_FROM + Date.now());
    return this.lastPart;
  }

  /** Samples of one series with from ≤ time < to, by time then probe. */
  async series(
    imei: string,
    series: SensorSeries,
    fromDay: string,
    toDay: string,
    from: number,
    to: number,
  ): Promise<SensorSample[]> {
    const out: SensorSample[] = [];
    const it = this.kv.list<SampleBlock>({
      start: K.seriesDay(imei, series, fromDay),
      end: K.part(imei, series, toDay, Number.MAX_SAFE_INTEGER),
    }, { batchSize: 200 });
    let sorted = true, lastTime = -Infinity;
    for await (const e of it) {
      const before = out.length;
      unpackSamples(e.value, from, to, out);
      if (out.length > before) {
        if (out[before].time < lastTime) sorted = false;
        lastTime = out[out.length - 1].time;
      }
    }
    // Blocks and parts are sorted in themselves; appended parts of a day may interleave.
    if (!sorted) out.sort(byTimeAndIndex);
    return out;
  }

  /** The same samples as `series`, as columns. */
  async seriesColumns(
    imei: string,
    series: SensorSeries,
    fromDay: string,
    toDay: string,
    from: number,
    to: number,
  ): Promise<SampleColumns> {
    const blocks: SampleBlock[] = [];
    const it = this.kv.list<SampleBlock>({
      start: K.seriesDay(imei, series, fromDay),
      end: K.part(imei, series, toDay, Number.MAX_SAFE_INTEGER),
    }, { batchSize: 200 });
    for await (const e of it) blocks.push(e.value);
    return blocksToColumns(blocks, from, to);
  }

  async events(imei: string, fromDay: string, toDay: string): Promise<SensorEvent[]> {
    const out: SensorEvent[] = [];
    const it = this.kv.list<SensorEvent[]>({
      start: K.eventDay(imei, fromDay),
      end: K.eventPart(imei, toDay, Number.MAX_SAFE_INTEGER),
    }, { batchSize: 200 });
    for await (const e of it) out.push(...e.value);
    return out;
  }

  async reported(imei: string): Promise<Reported | null> {
    return (await this.kv.get<Reported>(K.has(imei))).value;
  }

  async reportedMany(imeis: string[]): Promise<Map<string, Reported>> {
    const out = new Map<string, Reported>();
    for (let i = 0; i < imeis.length; i += 10) {
      const part = imeis.slice(i, i + 10);
      const entries = await this.kv.getMany<Reported[]>(part.map(K.has));
      entries.forEach((e, k) => e.value && out.set(part[k], e.value));
    }
    return out;
  }

  /**
   * Appends samples, events and what devices now report, in as few atomic operations as KV's
   * limits allow, marking the device-days for compaction. Not one atomic whole: a part is
   * complete in itself, so a crash between two operations loses only what was not written.
   */
  async append(
    series: SeriesAppend[],
    events: EventAppend[],
    reported: Map<string, Reported>,
  ): Promise<void> {
    const w = new Writes(this.kv);
    const dirty = new Set<string>();
    for (const a of series) {
      for (let i = 0; i < a.samples.length; i += BLOCK_SAMPLES) {
        const block = packDay(dayStart(a.day), a.samples.slice(i, i + BLOCK_SAMPLES))[0];
        w.set(K.part(a.imei, a.series, a.day, this.nextPart()), block, blockBytes(block));
      }
      dirty.add(`${a.day}/${a.imei}`);
    }
    for (const a of events) {
      w.set(K.eventPart(a.imei, a.day, this.nextPart()), a.events, 200 * a.events.length);
      dirty.add(`${a.day}/${a.imei}`);
    }
    for (const [imei, r] of reported) w.set(K.has(imei), r, 400);
    for (const d of dirty) {
      const [day, imei] = d.split("/");
      w.set(K.dirty(day, imei), 1, 50);
    }
    await w.commit();
  }

  /** Device-days with appended parts, of days before `day`. */
  async *dirtyBefore(day: string): AsyncGenerator<{ day: string; imei: string }> {
    const it = this.kv.list<number>({ start: K.dirtyPrefix, end: K.dirty(day, "") });
    for await (const e of it) yield { day: e.key[2] as string, imei: e.key[3] as string };
  }

  /**
   * Merges a device-day's parts into blocks 0…k (events into one part 0), then unmarks it.
   * Only the series the device reports are looked at (all when it is not known).
   */
  async compactDay(imei: string, day: string): Promise<void> {
    const reported = (await this.reported(imei))?.series ?? SENSOR_SERIES;
    for (const series of reported) {
      const samples: SensorSample[] = [];
      const keys: Deno.KvKey[] = [];
      for await (const e of this.kv.list<SampleBlock>({ prefix: K.seriesDay(imei, series, day) })) {
        unpackSamples(e.value, -Infinity, Infinity, samples);
        keys.push(e.key);
      }
      if (keys.length === 0 || (keys.length === 1 && (keys[0][5] as number) < APPENDED_FROM)) {
        continue;
      }
      samples.sort(byTimeAndIndex);
      const blocks = packDay(dayStart(day), samples);
      const w = new Writes(this.kv);
      blocks.forEach((b, k) => w.set(K.part(imei, series, day, k), b, blockBytes(b)));
      for (const key of keys) if ((key[5] as number) >= blocks.length) w.delete(key);
      // Blocks first, then the parts they replace: a crash between the two only duplicates.
      await w.commit();
    }
    const events: SensorEvent[] = [];
    const keys: Deno.KvKey[] = [];
    for await (const e of this.kv.list<SensorEvent[]>({ prefix: K.eventDay(imei, day) })) {
      events.push(...e.value);
      keys.push(e.key);
    }
    const w = new Writes(this.kv);
    if (keys.length > 1 || (keys.length === 1 && (keys[0][4] as number) >= APPENDED_FROM)) {
      events.sort((a, b) => a.time - b.time);
      w.set(K.eventPart(imei, day, 0), events, 200 * events.length);
      for (const key of keys) if (key[4] !== 0) w.delete(key);
    }
    w.delete(K.dirty(day, imei));
    await w.commit();
  }
}

const blockBytes = (b: SampleBlock) => b.time.length * 17 + 200;

/** Sets and deletes committed in operations below KV's limits (in order). */
class Writes {
  private ops: { key: Deno.KvKey; value?: unknown; bytes: number }[] = [];

  constructor(private readonly kv: Deno.Kv) {}

  set(key: Deno.KvKey, value: unknown, bytes: number): void {
    this.ops.push({ key, value, bytes });
  }

  delete(key: Deno.KvKey): void {
    this.ops.push({ key, bytes: 50 });
  }

  async commit(): Promise<void> {
    let op = this.kv.atomic(), bytes = 0, count = 0;
    for (const w of this.ops) {
      if (count && (bytes + w.bytes > OP_BYTES || count >= OP_MUTATIONS)) {
        if (!(await op.commit()).ok) throw new Error("sensor write failed");
        op = this.kv.atomic(), bytes = 0, count = 0;
      }
      if (w.value === undefined) op.delete(w.key);
      else op.set(w.key, w.value);
      bytes += w.bytes + 100;
      count++;
    }
    if (count && !(await op.commit()).ok) throw new Error("sensor write failed");
    this.ops = [];
  }
}
