/**
 * The gateway's metrics: what its links count (in whichever thread reads the sockets) and
 * what ingest counts (on the main thread). The composition root registers them in the
 * process's registry (`gatewayMetrics(registry)`); an I/O worker counts into its own
 * unregistered copy (`linkMetrics()`) and posts the differences to the main thread, which
 * adds them to the registered series (`CountsOutbox` / `addCounts`).
 *
 * Every series is resolved here, once: a link adds to a plain number field per frame.
 */
import { Counter, Gauge, Histogram, type Registry, SECONDS_BUCKETS } from "../../lib/metrics.ts";
import type { ProtocolName } from "./link/link_messages.ts";

export const TCP_PROTOCOLS: readonly ProtocolName[] = ["gt06", "jt808", "h02"];
export type MetricProtocol = ProtocolName | "osmand";
const ALL_PROTOCOLS: readonly MetricProtocol[] = [...TCP_PROTOCOLS, "osmand"];

/** Why a frame (or a connection) was refused. */
export const REFUSALS = ["oversized", "malformed", "unknown_device", "credentials"] as const;
export type Refusal = typeof REFUSALS[number];

export interface ProtocolCounters {
  /** Open connections (TCP), identified or not. */
  connections: Gauge;
  frames: Counter;
  /** Decoder exceptions (a frame the decoder could not read: a bug or hostile bytes). */
  decodeErrors: Counter;
  badChecksums: Counter;
  refused: Record<Refusal, Counter>;
}

export interface LinkMetrics {
  protocols: Record<MetricProtocol, ProtocolCounters>;
  /** Bytes waiting in the epoll transport's send ring (and its overflow). */
  sendQueueBytes: Gauge;
}

export interface IngestMetrics {
  commits: Counter;
  failedCommits: Counter;
  /** Positions per successful commit. */
  commitPositions: Histogram;
  commitSeconds: Histogram;
  /** From a submission to its acknowledgement being released (commit done). */
  ackSeconds: Histogram;
  /** Submissions waiting for a commit (the Ingestor sets the samplers). */
  pendingSubmissions: Gauge;
  pendingPositions: Gauge;
}

export interface GatewayMetrics {
  link: LinkMetrics;
  ingest: IngestMetrics;
}

const POSITION_BUCKETS = [1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 3000];

/** Registers the gateway's series in `r`. */
export function gatewayMetrics(r: Registry): GatewayMetrics {
  const connections = r.gauge(
    "tp_gateway_connections",
    "Open device connections (TCP), identified or not",
    ["protocol"],
  );
  const frames = r.counter("tp_gateway_frames_received_total", "Frames received", ["protocol"]);
  const decodeErrors = r.counter(
    "tp_gateway_decode_errors_total",
    "Frames a decoder failed on (exceptions)",
    ["protocol"],
  );
  const badChecksums = r.counter(
    "tp_gateway_bad_checksums_total",
    "Frames with a wrong checksum",
    ["protocol"],
  );
  const refused = r.counter(
    "tp_gateway_refused_total",
    "Frames refused: oversized, malformed, unknown device, wrong credentials",
    ["protocol", "reason"],
  );
  const protocols = {} as Record<MetricProtocol, ProtocolCounters>;
  for (const p of ALL_PROTOCOLS) {
    protocols[p] = {
      // OsmAnd is plain HTTP requests: no connection of its own to count.
      connections: p === "osmand" ? new Gauge() : connections.labels(p),
      frames: frames.labels(p),
      decodeErrors: decodeErrors.labels(p),
      badChecksums: badChecksums.labels(p),
      refused: Object.fromEntries(REFUSALS.map((k) => [k, refused.labels(p, k)])) as Record<
        Refusal,
        Counter
      >,
    };
  }
  const sendQueueBytes = r.gauge(
    "tp_gateway_send_queue_bytes",
    "Bytes waiting to be written to device sockets (epoll send ring)",
  ).labels();
  const commits = r.counter("tp_ingest_commits_total", "Store commits of device data", [
    "result",
  ]);
  const pending = r.gauge("tp_ingest_pending", "Device data waiting for a commit", ["kind"]);
  return {
    link: { protocols, sendQueueBytes },
    ingest: {
      commits: commits.labels("ok"),
      failedCommits: commits.labels("failed"),
      commitPositions: r.histogram(
        "tp_ingest_commit_positions",
        "Positions per commit",
        POSITION_BUCKETS,
      ).labels(),
      commitSeconds: r.histogram(
        "tp_ingest_commit_duration_seconds",
        "Time a commit took",
        SECONDS_BUCKETS,
      ).labels(),
      ackSeconds: r.histogram(
        "tp_ingest_ack_latency_seconds",
        "From device data reaching ingest to its acknowledgement (stored)",
        SECONDS_BUCKETS,
      ).labels(),
      pendingSubmissions: pending.labels("submissions"),
      pendingPositions: pending.labels("positions"),
    },
  };
}

/** Unregistered link counters: an I/O worker's, or a test's. */
export function linkMetrics(): LinkMetrics {
  const protocols = {} as Record<MetricProtocol, ProtocolCounters>;
  for (const p of ALL_PROTOCOLS) {
    protocols[p] = {
      connections: new Gauge(),
      frames: new Counter(),
      decodeErrors: new Counter(),
      badChecksums: new Counter(),
      refused: Object.fromEntries(REFUSALS.map((k) => [k, new Counter()])) as Record<
        Refusal,
        Counter
      >,
    };
  }
  return { protocols, sendQueueBytes: new Gauge() };
}

/** Unregistered ingest series (tests, benchmarks). */
export function ingestMetrics(): IngestMetrics {
  return {
    commits: new Counter(),
    failedCommits: new Counter(),
    commitPositions: new Histogram(POSITION_BUCKETS),
    commitSeconds: new Histogram(SECONDS_BUCKETS),
    ackSeconds: new Histogram(SECONDS_BUCKETS),
    pendingSubmissions: new Gauge(),
    pendingPositions: new Gauge(),
  };
}

/** The link series in a fixed order, the same in a worker and on the main thread. */
function flat(m: LinkMetrics): (Counter | Gauge)[] {
  const out: (Counter | Gauge)[] = [];
  for (const p of TCP_PROTOCOLS) {
    const c = m.protocols[p];
    out.push(c.connections, c.frames, c.decodeErrors, c.badChecksums);
    for (const k of REFUSALS) out.push(c.refused[k]);
  }
  out.push(m.sendQueueBytes);
  return out;
}

/**
 * A worker's side: what changed since the last report, as one array of differences (null
 * when nothing did), sent along with the worker's data messages and on a timer.
 */
export class CountsOutbox {
  private readonly series: (Counter | Gauge)[];
  private readonly sent: Float64Array;

  constructor(m: LinkMetrics) {
    this.series = flat(m);
    this.sent = new Float64Array(this.series.length);
  }

  take(): number[] | null {
    let deltas: number[] | null = null;
    for (let i = 0; i < this.series.length; i++) {
      const s = this.series[i];
      const v = s instanceof Gauge && s.sampler ? s.sampler() : s.value;
      if (v === this.sent[i]) continue;
      deltas ??= new Array(this.series.length).fill(0);
      deltas[i] = v - this.sent[i];
      this.sent[i] = v;
    }
    return deltas;
  }
}

/**
 * The main thread's side: adds a worker's differences to the registered series and keeps
 * that worker's share of the gauges, taken back when it ends (its connections end with it).
 */
export class WorkerCounts {
  private readonly series: (Counter | Gauge)[];
  private readonly gaugeShare: Float64Array;

  constructor(m: LinkMetrics) {
    this.series = flat(m);
    this.gaugeShare = new Float64Array(this.series.length);
  }

  add(deltas: readonly number[]): void {
    for (let i = 0; i < this.series.length && i < deltas.length; i++) {
      const s = this.series[i];
      if (s instanceof Gauge) {
        s.inc(deltas[i]);
        this.gaugeShare[i] += deltas[i];
      } else s.inc(deltas[i]);
    }
  }

  /** The worker ended: its gauges' share is no longer true. */
  withdraw(): void {
    for (let i = 0; i < this.series.length; i++) {
      if (this.gaugeShare[i]) (this.series[i] as Gauge).dec(this.gaugeShare[i]);
    }
    this.gaugeShare.fill(0);
  }
}
