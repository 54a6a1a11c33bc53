/** A fleet of simulated trackers of one protocol, with shared counters. */
import type { ProtocolName } from "../devices/models.ts";
import { DEFAULT_PORTS } from "./api.ts";
import { emptyStats, type SimStats, SimulatedDevice } from "./device.ts";
import { imeiFor } from "./imei.ts";
import { Rng } from "./rng.ts";
import { type Centre, CENTRES } from "./routes.ts";
import { Vehicle } from "./vehicle.ts";
import type { VideoTerminalOptions } from "./devices/jt808_video.ts";

export interface SimulatorOptions {
  protocol: ProtocolName;
  devices: number;
  host?: string;
  /** Defaults to the protocol's default gateway port. */
  port?: number;
  /** Seconds between reports (default 10). */
  intervalSeconds?: number;
  imeiPrefix?: string;
  /** First device index (IMEIs are prefix + index). */
  startIndex?: number;
  seed?: number;
  centre?: Centre;
  /** Multiplies the default alarm rates; 0 disables alarms. */
  alarmScale?: number;
  /** Connection drops per device and hour (default 0.5); 0 disables. */
  reconnectsPerHour?: number;
  /** OsmAnd request form; "mixed" alternates per device (default). */
  osmandForm?: "query" | "json" | "mixed";
  onProblem?: (imei: string, message: string) => void;
  onCommand?: (imei: string, text: string, reply: string | null) => void;
  /** JT/T 808 terminals with a dashcam (`--video`). */
  video?: VideoTerminalOptions;
}

export const DEFAULT_IMEI_PREFIX = "86000000";

function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

export class Simulator {
  readonly stats: SimStats = emptyStats();
  readonly imeis: string[];
  readonly port: number;
  readonly devices: SimulatedDevice[];
  private started = false;

  constructor(readonly opts: SimulatorOptions) {
    const prefix = opts.imeiPrefix ?? DEFAULT_IMEI_PREFIX;
    const start = opts.startIndex ?? 0;
    this.imeis = Array.from({ length: opts.devices }, (_, i) => imeiFor(prefix, start + i));
    this.port = opts.port ?? DEFAULT_PORTS[opts.protocol];
    const seed = opts.seed ?? 1;
    this.devices = this.imeis.map((imei, i) => {
      // Per device from the seed and the IMEI: fleets under other prefixes drive elsewhere.
      const rng = new Rng((seed * 0x9e3779b1) ^ fnv1a(imei));
      return new SimulatedDevice({
        imei,
        protocol: opts.protocol,
        host: opts.host ?? "127.0.0.1",
        port: this.port,
        intervalMs: Math.round((opts.intervalSeconds ?? 10) * 1000),
        vehicle: new Vehicle({
          seed: Math.floor(rng.next() * 0x7fffffff),
          centre: opts.centre ?? CENTRES.shenzhen,
          alarmScale: opts.alarmScale,
          reconnectsPerHour: opts.reconnectsPerHour,
        }),
        rng,
        stats: this.stats,
        onProblem: opts.onProblem,
        onCommand: opts.onCommand,
        video: opts.protocol === "jt808" ? opts.video : undefined,
        osmandForm: opts.osmandForm === "query" || opts.osmandForm === "json"
          ? opts.osmandForm
          : i % 2 === 0
          ? "query"
          : "json",
      });
    });
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    for (const d of this.devices) d.start();
  }

  async stop(): Promise<void> {
    await Promise.all(this.devices.map((d) => d.stop()));
  }
}
