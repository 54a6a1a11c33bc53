/**
 * A GT06 device that keeps count of what the platform acknowledged: it sends 0x16 packets
 * (GPS + cell + status), which the gateway answers only after the group commit that stores
 * them, and records each acknowledged fix by its serial. What it holds is the proof a test
 * needs: every acknowledged fix must be in the store, once. It also answers a command (0x80)
 * as a GT06N does (0x21, the simulator's wording).
 */
import {
  GT06_COMBINED,
  GT06_COMMAND,
  GT06_LOGIN,
  gt06Alarm,
  gt06CommandReply,
  gt06Login,
  type Gt06ServerFrame,
  Gt06StreamReader,
  parseGt06Command,
} from "../../modules/simulator/devices/gt06.ts";
import { gt06Answer } from "../../modules/simulator/devices/answers.ts";
import { sampleFix } from "../../modules/simulator/fix.ts";
import { RawDevice } from "../helpers/raw_device.ts";

export interface SentFix {
  time: number;
  lat: number;
  lng: number;
}

export class AckedGt06 {
  private device: RawDevice<Gt06ServerFrame> | null = null;
  private serial = 1;
  /** Fixes sent, by serial, until their acknowledgement arrives. */
  private readonly pending = new Map<number, SentFix>();
  readonly acked: SentFix[] = [];
  readonly sent: SentFix[] = [];
  private next = 0;

  /** `base`: the first fix time (whole second); fixes follow a second and ~11 m apart. */
  constructor(readonly imei: string, private readonly base: number) {}

  /** Connects and logs in; false when the login is not acknowledged within `timeoutMs`. */
  async connect(port: number, timeoutMs = 5000): Promise<boolean> {
    await this.device?.done();
    this.device = await RawDevice.open(port, new Gt06StreamReader());
    await this.device.send(gt06Login(this.imei, this.serial++));
    try {
      const frame = await this.nextFrame(timeoutMs);
      return frame.type === GT06_LOGIN;
    } catch {
      return false;
    }
  }

  /** Sends the next fix; returns it. */
  async send(): Promise<SentFix> {
    const i = this.next++;
    const fix = this.fixAt(i);
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

  /**
   * Waits for the platform's next command, answers it and returns its text (acknowledgements
   * that pass meanwhile are recorded).
   */
  async answerCommand(timeoutMs = 15_000): Promise<string> {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const frame = await this.nextFrame(Math.max(1, end - Date.now()));
      const command = frame.type === GT06_COMMAND ? parseGt06Command(frame.content) : null;
      if (!command) continue;
      const at = this.fixAt(Math.max(0, this.next - 1));
      const state = sampleFix({ time: new Date(at.time), latitude: at.lat, longitude: at.lng });
      const answer = gt06Answer(command.text, state);
      await this.device!.send(gt06CommandReply(command.serverFlag, answer, this.serial++ & 0xffff));
      return command.text;
    }
  }

  /** The i-th fix: a second and ~11 m after the one before. */
  private fixAt(i: number): SentFix {
    return { time: this.base + i * 1000, lat: 22.5 + i * 1e-4, lng: 114.05 };
  }

  /** The next server frame (acknowledgements are recorded as they pass). */
  private async nextFrame(timeoutMs: number): Promise<Gt06ServerFrame> {
    const frame = await this.device!.frame(timeoutMs);
    const fix = this.pending.get(frame.serial);
    if (frame.type === GT06_COMBINED && fix) {
      this.pending.delete(frame.serial);
      this.acked.push(fix);
    }
    return frame;
  }
}
