/**
 * GT06 load for bench:cluster: thousands of devices over LoopbackFleet's epoll sockets, each
 * the ingest bench's device (gt06_bench_device.ts) sending 0x16 packets that the gateway
 * acknowledges after the commit that stores them. Two measurements, as bench:ingest makes them:
 *  - saturation: `window` packets outstanding per device, the next sent when one is answered;
 *  - paced: a fixed offered rate spread over the devices (open loop, at most 8 queued each).
 * Committed positions/s count acks by arrival; latencies are write → ack.
 */
import { drainDevices, Gt06BenchDevice, linkOpener, offerRate } from "./gt06_bench_device.ts";
import { Histogram } from "./latency_histogram.ts";
import { LoopbackFleet } from "./loopback_fleet.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface LoadResult {
  /** Acknowledged positions per second in the measured window. */
  committed: number;
  p50: number;
  p99: number;
}

/** The measured window: acks counted by arrival, latencies by send time. */
interface Window {
  from: number;
  to: number;
  acks: number;
  hist: Histogram;
}

/** A fleet of GT06 devices on one port (an instance's or the balancer's). */
export class GtLoad {
  readonly fleet = new LoopbackFleet();
  private readonly devices: Gt06BenchDevice[];
  private measured: Window | null = null;
  /** Packets kept outstanding per device while saturating (0: not saturating). */
  private window = 0;

  /** `base`: the first fix time; devices report whole seconds onwards from it. */
  constructor(imeis: string[], base: number) {
    const setup = {
      base,
      open: linkOpener(this.fleet),
      onAck: (d: Gt06BenchDevice, sentAt: number, now: number) => this.acked(d, sentAt, now),
    };
    this.devices = imeis.map((imei, i) => new Gt06BenchDevice(imei, i, setup));
    this.fleet.start();
  }

  static supported(): boolean {
    return LoopbackFleet.supported();
  }

  /** Logs every device in (200 at a time). */
  async connect(port: number): Promise<void> {
    let next = 0;
    const worker = async () => {
      while (next < this.devices.length) await this.devices[next++].login(port);
    };
    await Promise.all(Array.from({ length: 200 }, worker));
  }

  private acked(device: Gt06BenchDevice, sentAt: number, now: number): void {
    const w = this.measured;
    if (w) {
      if (now >= w.from && now < w.to) w.acks++;
      if (sentAt >= w.from && sentAt < w.to) w.hist.add(now - sentAt);
    }
    while (device.inFlight < this.window && !device.closed) device.send();
  }

  /**
   * As fast as acks come back, `window` packets outstanding per device (the next sent when one
   * is answered): `warmup` s, then `seconds` s measured.
   */
  async saturate(warmup: number, seconds: number, window: number): Promise<LoadResult> {
    const w = this.measure(warmup, seconds);
    this.window = window;
    for (const d of this.devices) while (d.inFlight < window && !d.closed) d.send();
    await sleep((warmup + seconds) * 1000);
    this.window = 0;
    await this.drain();
    return this.result(w, seconds);
  }

  /** `rate` positions/s offered: 2 s settling, then `seconds` s measured. */
  async paced(rate: number, seconds: number): Promise<LoadResult & { skipped: number }> {
    const w = this.measure(2, seconds);
    let skipped = 0;
    const stop = offerRate(this.devices, rate, (now) => {
      if (now >= w.from && now < w.to) skipped++;
    });
    await sleep((2 + seconds) * 1000);
    stop();
    await this.drain();
    return { ...this.result(w, seconds), skipped };
  }

  /** Devices whose connection closed (a failed instance, the balancer's limit). */
  get dropped(): number {
    return this.devices.filter((d) => d.closed).length;
  }

  async close(): Promise<void> {
    for (const d of this.devices) d.close();
    await this.fleet.close();
  }

  private measure(afterSeconds: number, seconds: number): Window {
    const from = performance.now() + afterSeconds * 1000;
    this.measured = { from, to: from + seconds * 1000, acks: 0, hist: new Histogram() };
    return this.measured;
  }

  private result(w: Window, seconds: number): LoadResult {
    return { committed: w.acks / seconds, p50: w.hist.percentile(50), p99: w.hist.percentile(99) };
  }

  private drain(): Promise<void> {
    return drainDevices(this.devices);
  }
}
