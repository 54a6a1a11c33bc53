/**
 * The SensorReader the reports read: the store's parts and blocks plus what the recorder holds
 * in memory, in time order.
 */
import { byTimeAndIndex, dayOf, samplesToColumns } from "./codec.ts";
import { mergeReported, type SensorRecorder } from "./recorder.ts";
import type { SensorStore } from "./store.ts";
import type { SensorRelay } from "./relay.ts";
import type {
  SampleColumns,
  SensorEvent,
  SensorEventKind,
  SensorReader,
  SensorSample,
  SensorSeries,
} from "./types.ts";

/** The recorder's in-memory view (absent where nothing is recorded, e.g. a bench reading). */
type Pending = Pick<SensorRecorder, "pendingSeries" | "pendingEvents" | "pendingReported">;

export class SensorReadings implements SensorReader {
  /**
   * `relay`: cluster mode, where the readings of a device held by another instance wait in that
   * instance's memory (./relay.ts); single mode reads its own recorder's.
   */
  constructor(
    private readonly store: SensorStore,
    private readonly pending?: Pending,
    private readonly relay?: SensorRelay,
  ) {}

  private waitingSeries(imei: string, series: SensorSeries, from: number, to: number) {
    if (this.relay) return this.relay.pendingSeries(imei, series, from, to);
    return Promise.resolve(this.pending?.pendingSeries(imei, series, from, to) ?? []);
  }

  async series(
    imei: string,
    series: SensorSeries,
    from: number,
    to: number,
  ): Promise<SensorSample[]> {
    if (!(to > from)) return [];
    // Waiting first, then the store: a sample being appended meanwhile is in one or both.
    const waiting = await this.waitingSeries(imei, series, from, to);
    const out = await this.store.series(imei, series, dayOf(from), dayOf(to - 1), from, to);
    return withWaiting(out, waiting);
  }

  async seriesColumns(
    imei: string,
    series: SensorSeries,
    from: number,
    to: number,
  ): Promise<SampleColumns> {
    if (!(to > from)) return samplesToColumns([]);
    const waiting = await this.waitingSeries(imei, series, from, to);
    // Samples still in memory (the last minutes): the object path merges them in order.
    if (waiting.length) {
      const stored = await this.store.series(imei, series, dayOf(from), dayOf(to - 1), from, to);
      return samplesToColumns(withWaiting(stored, waiting));
    }
    return await this.store.seriesColumns(imei, series, dayOf(from), dayOf(to - 1), from, to);
  }

  async events(
    imei: string,
    kinds: SensorEventKind[],
    from: number,
    to: number,
  ): Promise<SensorEvent[]> {
    if (!(to > from) || !kinds.length) return [];
    const waiting = this.relay
      ? await this.relay.pendingEvents(imei, kinds, from, to)
      : this.pending?.pendingEvents(imei, kinds, from, to) ?? [];
    // Events are kept under the day of their own time (a refuel: its start), however late told.
    const stored = await this.store.events(imei, dayOf(from), dayOf(to - 1));
    const wanted = new Set(kinds);
    const out = stored.filter((e) => wanted.has(e.kind) && e.time >= from && e.time < to);
    const seen = new Set(out.map(eventKey));
    for (const e of waiting) if (!seen.has(eventKey(e))) out.push(e);
    return out.sort((a, b) => a.time - b.time);
  }

  async reports(imei: string): Promise<{ series: SensorSeries[]; events: SensorEventKind[] }> {
    const stored = await this.store.reported(imei);
    const waiting = this.relay
      ? await this.relay.pendingReported(imei)
      : this.pending?.pendingReported(imei);
    if (!waiting) return stored ?? { series: [], events: [] };
    return mergeReported(stored, waiting);
  }
}

/**
 * The stored samples and the waiting ones in order, each once: a sample appended between the two
 * reads is in both (a series has one sample per time and probe).
 */
function withWaiting(stored: SensorSample[], waiting: SensorSample[]): SensorSample[] {
  if (!waiting.length) return stored;
  const seen = new Set(stored.map((s) => `${s.time}:${s.index}`));
  const fresh = waiting.filter((s) => !seen.has(`${s.time}:${s.index}`));
  return fresh.length ? stored.concat(fresh).sort(byTimeAndIndex) : stored;
}

const eventKey = (e: SensorEvent) => `${e.kind}:${e.time}`;
