/**
 * A GT06 device that keeps count of what the platform acknowledged: it sends 0x16 packets
 * (GPS + cell + status), which the gateway answers only after the group commit that stores
 * them, and records each acknowledged fix by its serial. What it holds is the proof a test
 * needs: every acknowledged fix must be in the store, once.
 */
import { GT06_COMBINED, gt06Alarm, gt06Login } from "../../modules/simulator/devices/gt06.ts";
import { sampleFix } from "../../modules/simulator/fix.ts";
import { RawDevice } from "../helpers/raw_device.ts";

export interface SentFix {
  time: number;
  lat: number;
  lng: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class AckedGt06 {
  private device: RawDevice | null = null;
  private serial = 1;
  /** Fixes sent, by serial, until their acknowledgement arrives. */
  private readonly pending = new Map<number, SentFix>();
  readonly acked: SentFix[] = [];
  readonly sent: SentFix[] = [];
  private next = 0;
  private buf: number[] = [];

  /** `base`: the first fix time (whole second); fixes follow a second and ~11 m apart. */
  constructor(readonly imei: string, private readonly base: number) {}

  /** Connects and logs in; false when the login is not acknowledged within `timeoutMs`. */
  async connect(port: number, timeoutMs = 5000): Promise<boolean> {
    await this.device?.done();
    this.buf = [];
    this.device = await RawDevice.open(port);
    await this.device.send(gt06Login(this.imei, this.serial++));
    try {
      const frame = await this.nextFrame(timeoutMs);
      return frame.type === 0x01;
    } catch {
      return false;
    }
  }

  /** Sends the next fix; returns it. */
  async send(): Promise<SentFix> {
    const i = this.next++;
    const fix = { time: this.base + i * 1000, lat: 22.5 + i * 1e-4, lng: 114.05 };
    const serial = this.serial++ & 0xffff;
    this.pending.set(serial, fix);
    this.sent.push(fix);
    await this.device!.send(gt06Alarm(
      sampleFix({
        time: new Date(fix.time),
        latitude: fix.lat,
        longitude: fix.lng,
        speedKmh: 36,
        course: 0,
      }),
      serial,
      GT06_COMBINED,
    ));
    return fix;
  }

  /** Sends a fix and waits for its acknowledgement (throws when none comes). */
  async sendAcked(timeoutMs = 5000): Promise<SentFix> {
    const fix = await this.send();
    const end = Date.now() + timeoutMs;
    while (!this.acked.includes(fix)) {
      const left = end - Date.now();
      if (left <= 0) throw new Error(`fix ${new Date(fix.time).toISOString()} not acknowledged`);
      await this.nextFrame(left);
    }
    return fix;
  }

  get closedByServer(): boolean {
    return this.device?.closedByServer ?? true;
  }

  async close(): Promise<void> {
    await this.device?.done();
    this.device = null;
  }

  /** The next server frame (acknowledgements are recorded as they pass). */
  private async nextFrame(timeoutMs: number): Promise<{ type: number; serial: number }> {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const frame = this.cut();
      if (frame) {
        const fix = this.pending.get(frame.serial);
        if (frame.type === GT06_COMBINED && fix) {
          this.pending.delete(frame.serial);
          this.acked.push(fix);
        }
        return frame;
      }
      const dev = this.device!;
      if (dev.closedByServer || Date.now() > end) throw new Error("no frame from the server");
      try {
        this.buf.push(...await dev.take(1, Math.max(1, end - Date.now())));
      } catch { /* closed or timed out: checked above */ }
      await sleep(0);
    }
  }

  /** One `78 78 len proto … serial crc 0d 0a` frame off the buffer. */
  private cut(): { type: number; serial: number } | null {
    while (this.buf.length >= 2 && !(this.buf[0] === 0x78 && this.buf[1] === 0x78)) {
      this.buf.shift();
    }
    if (this.buf.length < 5) return null;
    const total = this.buf[2] + 5;
    if (this.buf.length < total) return null;
    const f = this.buf.splice(0, total);
    return { type: f[3], serial: (f[total - 6] << 8) | f[total - 5] };
  }
}
