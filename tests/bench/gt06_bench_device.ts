/**
 * The GT06 device of the ingest benches (bench:ingest, bench:cluster): it logs in, then sends
 * 0x16 packets (GPS + LBS + status), which the gateway acknowledges only after the commit that
 * stores them, and notes the write time of each packet until its acknowledgement arrives. A
 * packet is a template with the fix time, serial and CRC patched in, so that thousands of
 * devices cost the load generator little CPU. What a bench does with each write and
 * acknowledgement (windows, histograms, refilling at saturation) is its own, through
 * BenchDeviceSetup.
 */
import {
  crcItu,
  GT06_COMBINED,
  gt06Alarm,
  gt06Login,
} from "../../modules/simulator/devices/gt06.ts";
import { sampleFix } from "../../modules/simulator/fix.ts";
import { gt06Time } from "../helpers/gt06_frames.ts";
import type { LoopbackFleet, SocketHandler } from "./loopback_fleet.ts";
import { writeAll } from "../../lib/net/write_all.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** At most this many packets in flight per device when a rate is offered (open loop). */
const MAX_QUEUED = 8;

/** A device's connection to the server, whichever way the generator drives sockets. */
export interface Link {
  write(bytes: Uint8Array): void;
  close(): void;
}

export type LinkOpener = (port: number, events: SocketHandler) => Promise<Link>;

/**
 * Opens links on 127.0.0.1: over the epoll fleet (a few µs of CPU per frame) or, without one,
 * one Deno.TcpConn per device (~30 µs per frame).
 */
export function linkOpener(fleet: LoopbackFleet | null): LinkOpener {
  return (port, events) => fleet ? fleetLink(fleet, port, events) : denoLink(port, events);
}

async function fleetLink(fleet: LoopbackFleet, port: number, events: SocketHandler) {
  const fd = await fleet.connect(port, events);
  return {
    write: (bytes: Uint8Array) => {
      if (!fleet.write(fd, bytes)) events.onClosed();
    },
    close: () => fleet.closeSocket(fd),
  };
}

async function denoLink(port: number, events: SocketHandler): Promise<Link> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  (async () => {
    const chunk = new Uint8Array(1024);
    try {
      for (;;) {
        const n = await conn.read(chunk);
        if (n === null) break;
        events.onData(chunk.subarray(0, n));
      }
    } catch { /* closed */ }
    events.onClosed();
  })();
  let writing = Promise.resolve();
  const write = (bytes: Uint8Array) => writeAll(conn, bytes);
  const close = () => {
    try {
      conn.close();
    } catch { /* closed */ }
  };
  return {
    write: (bytes) => {
      writing = writing.then(() => write(bytes)).catch(close);
    },
    close,
  };
}

/** What all devices of a bench share. */
export interface BenchDeviceSetup {
  /** The first fix time (ms, a whole second); each packet's fix is a second after the last. */
  base: number;
  open: LinkOpener;
  /** A packet was written at `now` (performance.now). */
  onSent?(now: number): void;
  /** The packet written at `sentAt` was acknowledged at `now`. */
  onAck(device: Gt06BenchDevice, sentAt: number, now: number): void;
}

export class Gt06BenchDevice {
  private link: Link | null = null;
  private buf = new Uint8Array(0);
  private readonly template: Uint8Array;
  private serial = 1;
  /** Write times (performance.now) of packets not yet acknowledged, oldest first. */
  private readonly outstanding: number[] = [];
  private loginResolve: (() => void) | null = null;
  /** The next fix's offset from `base`, seconds. */
  next = 0;
  acked = 0;
  sent = 0;
  closed = false;

  /** `index` places the device on a grid of ~100 m around Shenzhen. */
  constructor(readonly imei: string, index: number, private readonly setup: BenchDeviceSetup) {
    this.template = gt06Alarm(
      sampleFix({
        latitude: 22.5 + (index % 100) / 1000,
        longitude: 114.0 + Math.floor(index / 100) / 1000,
        speedKmh: 40,
        acc: true,
      }),
      0,
      GT06_COMBINED,
    );
  }

  get inFlight(): number {
    return this.outstanding.length;
  }

  /** Connects and logs in (throws when no login acknowledgement comes within 30 s). */
  async login(port: number): Promise<void> {
    this.closed = false;
    this.link = await this.setup.open(port, {
      onData: (bytes) => this.onBytes(bytes),
      onClosed: () => (this.closed = true),
    });
    const ok = new Promise<void>((r) => (this.loginResolve = r));
    this.link.write(gt06Login(this.imei, this.serial++));
    const timeout = sleep(30_000).then(() => {
      throw new Error(`no login ack for ${this.imei}`);
    });
    await Promise.race([ok, timeout]);
  }

  /** One location packet with the next fix time, serial and CRC patched into the template. */
  send(): void {
    if (this.closed || !this.link) return;
    const f = this.template.slice();
    const t = new Date(this.setup.base + this.next++ * 1000);
    f.set(gt06Time(t), 4);
    const n = f.length, serial = this.serial++ & 0xffff;
    f[n - 6] = serial >> 8;
    f[n - 5] = serial & 0xff;
    const crc = crcItu(f, 2, n - 4);
    f[n - 4] = crc >> 8;
    f[n - 3] = crc & 0xff;
    const now = performance.now();
    this.outstanding.push(now);
    this.sent++;
    this.setup.onSent?.(now);
    this.link.write(f);
  }

  close(): void {
    this.closed = true;
    this.link?.close();
    this.link = null;
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
      this.loginResolve?.();
      this.loginResolve = null;
      return;
    }
    const sentAt = this.outstanding.shift();
    if (sentAt === undefined) return;
    this.acked++;
    this.setup.onAck(this, sentAt, performance.now());
  }
}

/**
 * Offers `rate` packets/s spread evenly over the devices (open loop: a device with MAX_QUEUED
 * in flight skips its turn, and `onSkip` hears of it). Credit comes from the real elapsed time:
 * timers fire late under load, fixed steps would offer less. Returns the stop.
 */
export function offerRate(
  devices: Gt06BenchDevice[],
  rate: number,
  onSkip: (now: number) => void,
): () => void {
  let credit = 0, cursor = 0, last = performance.now();
  const ticker = setInterval(() => {
    const now = performance.now();
    credit = Math.min(credit + (rate * (now - last)) / 1000, rate); // at most 1 s of backlog
    last = now;
    while (credit >= 1) {
      credit--;
      const d = devices[cursor];
      cursor = (cursor + 1) % devices.length;
      if (d.closed) continue;
      if (d.inFlight >= MAX_QUEUED) {
        onSkip(now);
        continue;
      }
      d.send();
    }
  }, 10);
  return () => clearInterval(ticker);
}

/** Waits (15 s at most) until every packet in flight on an open connection is answered. */
export async function drainDevices(devices: Gt06BenchDevice[]): Promise<void> {
  const until = Date.now() + 15_000;
  while (devices.some((d) => d.inFlight > 0 && !d.closed) && Date.now() < until) await sleep(50);
}
