/**
 * GT06 load for bench:cluster: thousands of devices over LoopbackFleet's epoll sockets (the
 * ingest bench's generator), each sending 0x16 packets that the gateway acknowledges after
 * the commit that stores them. Two measurements, as bench:ingest makes them:
 *  - saturation: `window` packets outstanding per device, the next sent when one is answered;
 *  - paced: a fixed offered rate spread over the devices (open loop, at most 8 queued each).
 * Committed positions/s count acks by arrival; latencies are write → ack.
 */
import {
  crcItu,
  GT06_COMBINED,
  gt06Alarm,
  gt06Login,
} from "../../modules/simulator/devices/gt06.ts";
import { sampleFix } from "../../modules/simulator/fix.ts";
import { LoopbackFleet } from "./loopback_fleet.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const MAX_QUEUED = 8;

/** Latencies in 0.1 ms buckets up to 30 s. */
export class Histogram {
  private counts = new Uint32Array(300_001);
  n = 0;
  add(ms: number) {
    this.counts[Math.min(this.counts.length - 1, Math.round(ms * 10))]++;
    this.n++;
  }
  percentile(p: number): number {
    if (!this.n) return NaN;
    const rank = Math.ceil((p / 100) * this.n);
    let seen = 0;
    for (let i = 0; i < this.counts.length; i++) {
      seen += this.counts[i];
      if (seen >= rank) return i / 10;
    }
    return NaN;
  }
}

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

class LoadDevice {
  private fd = -1;
  private buf = new Uint8Array(0);
  private readonly template: Uint8Array;
  private serial = 1;
  private next = 0;
  readonly outstanding: number[] = [];
  private loggedIn: (() => void) | null = null;
  closed = false;

  constructor(
    private readonly load: GtLoad,
    readonly imei: string,
    index: number,
    private readonly base: number,
  ) {
    this.template = gt06Alarm(
      sampleFix({
        latitude: 22.5 + (index % 100) / 1000,
        longitude: 114 + Math.floor(index / 100) / 1000,
        speedKmh: 40,
      }),
      0,
      GT06_COMBINED,
    );
  }

  async login(port: number): Promise<void> {
    this.fd = await this.load.fleet.connect(port, {
      onData: (bytes) => this.onBytes(bytes),
      onClosed: () => (this.closed = true),
    });
    const ok = new Promise<void>((r) => (this.loggedIn = r));
    this.load.fleet.write(this.fd, gt06Login(this.imei, this.serial++));
    const timeout = sleep(30_000).then(() => {
      throw new Error(`no login ack for ${this.imei}`);
    });
    await Promise.race([ok, timeout]);
  }

  /** The next fix (a second after the last) with its serial and CRC patched in. */
  send(): void {
    if (this.closed) return;
    const f = this.template.slice();
    const t = new Date(this.base + this.next++ * 1000);
    f.set([
      t.getUTCFullYear() - 2000,
      t.getUTCMonth() + 1,
      t.getUTCDate(),
      t.getUTCHours(),
      t.getUTCMinutes(),
      t.getUTCSeconds(),
    ], 4);
    const n = f.length, serial = this.serial++ & 0xffff;
    f[n - 6] = serial >> 8;
    f[n - 5] = serial & 0xff;
    const crc = crcItu(f, 2, n - 4);
    f[n - 4] = crc >> 8;
    f[n - 3] = crc & 0xff;
    this.outstanding.push(performance.now());
    if (!this.load.fleet.write(this.fd, f)) this.closed = true;
  }

  private onBytes(bytes: Uint8Array): void {
    let b = bytes;
    if (this.buf.length) {
      b = new Uint8Array(this.buf.length + bytes.length);
      b.set(this.buf);
      b.set(bytes, this.buf.length);
    }
    let pos = 0;
    while (b.length - pos >= 5) {
      if (b[pos] !== 0x78 || b[pos + 1] !== 0x78) {
        pos++;
        continue;
      }
      const total = b[pos + 2] + 5;
      if (b.length - pos < total) break;
      this.onFrame(b[pos + 3]);
      pos += total;
    }
    this.buf = pos < b.length ? b.slice(pos) : new Uint8Array(0);
  }

  private onFrame(type: number): void {
    if (type === 0x01) {
      this.loggedIn?.();
      this.loggedIn = null;
      return;
    }
    const sentAt = this.outstanding.shift();
    if (sentAt !== undefined) this.load.acked(this, sentAt);
  }

  close(): void {
    this.closed = true;
    this.load.fleet.closeSocket(this.fd);
  }
}

/** A fleet of GT06 devices on one port (an instance's or the balancer's). */
export class GtLoad {
  readonly fleet = new LoopbackFleet();
  private readonly devices: LoadDevice[];
  private measured: Window | null = null;
  /** Packets kept outstanding per device while saturating (0: not saturating). */
  private window = 0;

  /** `base`: the first fix time; devices report whole seconds onwards from it. */
  constructor(imeis: string[], base: number) {
    this.devices = imeis.map((imei, i) => new LoadDevice(this, imei, i, base));
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

  acked(device: LoadDevice, sentAt: number): void {
    const now = performance.now(), w = this.measured;
    if (w) {
      if (now >= w.from && now < w.to) w.acks++;
      if (sentAt >= w.from && sentAt < w.to) w.hist.add(now - sentAt);
    }
    while (device.outstanding.length < this.window && !device.closed) device.send();
  }

  /**
   * As fast as acks come back, `window` packets outstanding per device (the next sent when one
   * is answered): `warmup` s, then `seconds` s measured.
   */
  async saturate(warmup: number, seconds: number, window: number): Promise<LoadResult> {
    const w = this.measure(warmup, seconds);
    this.window = window;
    for (const d of this.devices) while (d.outstanding.length < window && !d.closed) d.send();
    await sleep((warmup + seconds) * 1000);
    this.window = 0;
    await this.drain();
    return this.result(w, seconds);
  }

  /** `rate` positions/s offered: 2 s settling, then `seconds` s measured. */
  async paced(rate: number, seconds: number): Promise<LoadResult & { skipped: number }> {
    const w = this.measure(2, seconds);
    let credit = 0, cursor = 0, skipped = 0, last = performance.now();
    const ticker = setInterval(() => {
      const now = performance.now();
      credit = Math.min(credit + (rate * (now - last)) / 1000, rate);
      last = now;
      while (credit >= 1) {
        credit--;
        const d = this.devices[cursor];
        cursor = (cursor + 1) % this.devices.length;
        if (d.closed) continue;
        if (d.outstanding.length >= MAX_QUEUED) {
          if (now >= w.from && now < w.to) skipped++;
          continue;
        }
        d.send();
      }
    }, 10);
    await sleep((2 + seconds) * 1000);
    clearInterval(ticker);
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

  /** Waits (15 s at most) until every packet in flight is answered. */
  private async drain(): Promise<void> {
    const until = Date.now() + 15_000;
    while (this.devices.some((d) => d.outstanding.length && !d.closed) && Date.now() < until) {
      await sleep(50);
    }
  }
}
