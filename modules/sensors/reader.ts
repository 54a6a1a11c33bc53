/**
 * The SensorReader the reports read: the store's parts and blocks plus what the recorder holds
 * in memory, in time order.
 */
import { byTimeAndIndex, dayOf, samplesToColumns } from "./codec.ts";
import { mergeReported, type SensorRecorder } from "./recorder.ts";
import type { SensorStore } from "./store.ts";
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
  constructor(private readonly store: SensorStore, private readonly pending?: Pending) {}

  async series(
    imei: string,
    series: SensorSeries,
    from: number,
    to: number,
  ): Promise<SensorSample[]> {
    if (!(to > from)) return [];
    const out = await this.store.series(imei, series, dayOf(from), dayOf(to - 1), from, to);
    const waiting = this.pending?.pendingSeries(imei, series, from, to) ?? [];
    if (!waiting.length) return out;
    return out.concat(waiting).sort(byTimeAndIndex);
  }

  async seriesColumns(
    imei: string,
    series: SensorSeries,
    from: number,
    to: number,
  ): Promise<SampleColumns> {
    if (!(to > from)) return samplesToColumns([]);
    const waiting = this.pending?.pendingSeries(imei, series, from, to) ?? [];
    // Samples still in memory (the last minutes): the object path merges them in order.
    if (waiting.length) return samplesToColumns(await this.series(imei, series, from, to));
    return await this.store.seriesColumns(imei, series, dayOf(from), dayOf(to - 1), from, to);
  }

  async events(
    imei: string,
    kinds: SensorEventKind[],
    from: number,
    to: number,
  ): Promise<SensorEvent[]> {
    if (!(to > from) || !kinds.length) return [];
    // Events are kept under the day of their own time (a refuel: its start), however late told.
    const stored = await this.store.events(imei, dayOf(from), dayOf(to - 1));
    const wanted = new Set(kinds);
    const out = stored.filter((e) => wanted.has(e.kind) && e.time >= from && e.time < to);
    out.push(...(this.pending?.pendingEvents(imei, kinds, from, to) ?? []));
    return out.sort((a, b) => a.time - b.time);
  }

  async reports(imei: string): Promise<{ series: SensorSeries[]; events: SensorEventKind[] }> {
    const stored = await this.store.reported(imei);
    const waiting = this.pending?.pendingReported(imei);
    if (!waiting) return stored ?? { series: [], events: [] };
    return mergeReported(stored, waiting);
  }
}
