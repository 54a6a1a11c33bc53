/**
 * Cluster mode (issue 23): sensor readings wait in the memory of the instance holding the device
 * for up to ten minutes before they are appended (./recorder.ts), and the console is round robin
 * across instances. A read of a device held elsewhere asks that instance for what waits there
 * (`tp.sensors.<instanceId>`, short timeout); with no live holder, or no answer, the reader has
 * the store and this instance's own waiting readings. An instance whose connection of a device
 * closes appends that device's readings at once (SensorRecorder.release), so only the holder has
 * any waiting. Single mode has no relay.
 */
import type { ClusterLink } from "../../lib/cluster/types.ts";
import { SUBJECTS } from "../../lib/cluster/types.ts";
import { answerAsHolder, askHolder, type DeviceHolders } from "../../lib/cluster/holder_request.ts";
import type { SensorRecorder } from "./recorder.ts";
import type { Reported } from "./store.ts";
import type { SensorEvent, SensorEventKind, SensorSample, SensorSeries } from "./types.ts";

/** The recorder's in-memory view. */
export type WaitingReadings = Pick<
  SensorRecorder,
  "pendingSeries" | "pendingEvents" | "pendingReported"
>;

/** How long a read waits for the holder's answer before it does without. */
export const WAITING_TIMEOUT_MS = 1000;

type Request =
  | { op: "series"; imei: string; series: SensorSeries; from: number; to: number }
  | { op: "events"; imei: string; kinds: SensorEventKind[]; from: number; to: number }
  | { op: "reported"; imei: string };

export class SensorRelay {
  private unreply: (() => void) | null = null;
  /** Counted for the tests: reads asked of another instance. */
  readonly stats = { asked: 0 };

  constructor(
    private readonly local: WaitingReadings,
    private readonly link: ClusterLink,
    private readonly holders: DeviceHolders,
    private readonly timeoutMs = WAITING_TIMEOUT_MS,
  ) {}

  start(): void {
    this.unreply ??= answerAsHolder<Request, unknown>(
      this.link,
      SUBJECTS.sensors,
      this.holders.instanceId,
      (q) => this.localAnswer(q),
    );
  }

  stop(): void {
    this.unreply?.();
    this.unreply = null;
  }

  async pendingSeries(imei: string, series: SensorSeries, from: number, to: number) {
    const q: Request = { op: "series", imei, series, from, to };
    return await this.ask<SensorSample[]>(q) ?? this.local.pendingSeries(imei, series, from, to);
  }

  async pendingEvents(imei: string, kinds: SensorEventKind[], from: number, to: number) {
    const q: Request = { op: "events", imei, kinds, from, to };
    return await this.ask<SensorEvent[]>(q) ?? this.local.pendingEvents(imei, kinds, from, to);
  }

  async pendingReported(imei: string): Promise<Reported | null> {
    const asked = await this.ask<Reported | null>({ op: "reported", imei });
    return asked === undefined ? this.local.pendingReported(imei) : asked;
  }

  /** The holder's answer; undefined when this instance holds the device, or none answers. */
  private async ask<T>(q: Request): Promise<T | undefined> {
    const { holder, answer } = await askHolder<{ value: T }>(
      this.link,
      this.holders,
      SUBJECTS.sensors,
      q.imei,
      q,
      this.timeoutMs,
    );
    if (holder) this.stats.asked++;
    return answer ? answer.value : undefined;
  }

  private localAnswer(q: Request): { value: unknown } {
    if (q.op === "series") {
      return { value: this.local.pendingSeries(q.imei, q.series, q.from, q.to) };
    }
    if (q.op === "events") {
      return { value: this.local.pendingEvents(q.imei, q.kinds, q.from, q.to) };
    }
    return { value: this.local.pendingReported(q.imei) };
  }
}
