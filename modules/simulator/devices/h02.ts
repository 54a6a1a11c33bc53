/**
 * H02 (Sinotrack / TK103-H02) device side, text form.
 *
 *   position   *HQ,<id>,V1,hhmmss,A,ddmm.mmmm,N,dddmm.mmmm,E,<knots>,<course>,ddmmyy,<status>#
 *   heartbeat  *HQ,<id>,HTBT,<battery %>#            (the server echoes *HQ,<id>,HTBT#)
 *   reply      *HQ,<id>,V4,<CMD>,<result>,<echoed hhmmss>,<fix…>,<status>#
 *
 * The status word uses negative logic (a bit at 0 means "active"): bit 10 set = ACC on,
 * bit 1 clear = SOS, bit 19 clear = main power cut, bit 0 clear = vibration. Server commands
 * arrive as `*HQ,<id>,<CMD>,<hhmmss>[,params]#`; the V4 answer echoes that hhmmss.
 */
import { asciiBytes, concatBytes, type DeviceFix, KMH_PER_KNOT, latin1Text } from "../fix.ts";
import { h02Answer } from "./answers.ts";
import type { DeviceLink, LinkEvent } from "./link.ts";

const MAKER = "HQ";

function two(n: number): string {
  return String(n).padStart(2, "0");
}

export function hhmmss(t: Date): string {
  return two(t.getUTCHours()) + two(t.getUTCMinutes()) + two(t.getUTCSeconds());
}

export function ddmmyy(t: Date): string {
  return two(t.getUTCDate()) + two(t.getUTCMonth() + 1) + two(t.getUTCFullYear() % 100);
}

/** Degrees → `ddmm.mmmm` (latitude) or `dddmm.mmmm` (longitude) with its hemisphere letter. */
export function nmeaCoordinate(value: number, isLongitude: boolean): [string, string] {
  const abs = Math.abs(value);
  let degrees = Math.floor(abs);
  let minutes = Math.round((abs - degrees) * 60 * 10000) / 10000;
  if (minutes >= 60) {
    degrees += 1;
    minutes -= 60;
  }
  const text = String(degrees).padStart(isLongitude ? 3 : 2, "0") +
    minutes.toFixed(4).padStart(7, "0");
  const hemisphere = isLongitude ? (value < 0 ? "W" : "E") : (value < 0 ? "S" : "N");
  return [text, hemisphere];
}

/** The 32-bit status word as 8 hex digits. */
export function h02Status(fix: DeviceFix): string {
  let status = 0xffffffff;
  const clear = (bit: number) => {
    status = (status & ~(1 << bit)) >>> 0;
  };
  if (!fix.acc) clear(10);
  if (fix.alarm === "sos") clear(1);
  if (fix.alarm === "powerCut") clear(19);
  if (fix.alarm === "vibration") clear(0);
  return status.toString(16).toUpperCase().padStart(8, "0");
}

/** `hhmmss,A,lat,N,lon,E,knots,course,ddmmyy,status` */
export function fixFields(fix: DeviceFix): string[] {
  const [lat, ns] = nmeaCoordinate(fix.latitude, false);
  const [lon, ew] = nmeaCoordinate(fix.longitude, true);
  return [
    hhmmss(fix.time),
    fix.valid ? "A" : "V",
    lat,
    ns,
    lon,
    ew,
    (fix.speedKmh / KMH_PER_KNOT).toFixed(2),
    String(Math.round(((fix.course % 360) + 360) % 360)),
    ddmmyy(fix.time),
    h02Status(fix),
  ];
}

export function h02Position(id: string, fix: DeviceFix): Uint8Array {
  return asciiBytes(`*${MAKER},${id},V1,${fixFields(fix).join(",")}#`);
}

export function h02Heartbeat(id: string, fix: DeviceFix): Uint8Array {
  return asciiBytes(`*${MAKER},${id},HTBT,${Math.round(fix.battery)}#`);
}

/** V4 confirmation of a command sent at `echoTime` (the server's hhmmss), with the current fix. */
export function h02Reply(
  id: string,
  answer: string[],
  echoTime: string,
  fix: DeviceFix,
): Uint8Array {
  return asciiBytes(`*${MAKER},${id},V4,${[...answer, echoTime, ...fixFields(fix)].join(",")}#`);
}

export interface H02ServerFrame {
  maker: string;
  id: string;
  type: string;
  fields: string[];
}

/** Cuts `*…#` frames out of the server's stream. */
export class H02StreamReader {
  private buf: Uint8Array = new Uint8Array(0);

  push(chunk: Uint8Array): H02ServerFrame[] {
    this.buf = this.buf.length ? concatBytes([this.buf, chunk]) : chunk.slice();
    const frames: H02ServerFrame[] = [];
    let pos = 0;
    for (;;) {
      const start = this.buf.indexOf(0x2a, pos);
      if (start < 0) {
        pos = this.buf.length;
        break;
      }
      const end = this.buf.indexOf(0x23, start + 1);
      if (end < 0) {
        pos = start;
        break;
      }
      const parts = latin1Text(this.buf.subarray(start + 1, end)).split(",");
      if (parts.length >= 3) {
        frames.push({ maker: parts[0], id: parts[1], type: parts[2], fields: parts.slice(3) });
      }
      pos = end + 1;
    }
    this.buf = this.buf.slice(pos);
    return frames;
  }
}

/** One H02 tracker's side: no login, every frame names the device. */
export class H02Link implements DeviceLink {
  readonly protocol = "h02";
  private reader = new H02StreamReader();

  constructor(readonly imei: string) {}

  /** A heartbeat first: its echo tells the device the server accepted it. */
  hello(fix: DeviceFix): Uint8Array[] {
    this.reader = new H02StreamReader();
    return [h02Heartbeat(this.imei, fix)];
  }

  position(fix: DeviceFix): Uint8Array {
    return h02Position(this.imei, fix);
  }

  backlog(fixes: DeviceFix[]): Uint8Array[] {
    return fixes.map((f) => this.position(f));
  }

  heartbeat(fix: DeviceFix): Uint8Array {
    return h02Heartbeat(this.imei, fix);
  }

  alarm(fix: DeviceFix): Uint8Array {
    return this.position(fix);
  }

  receive(chunk: Uint8Array, current: () => DeviceFix): LinkEvent[] {
    const events: LinkEvent[] = [];
    for (const f of this.reader.push(chunk)) {
      if (f.type === "HTBT" || f.type === "V0") {
        events.push({ type: "ready" });
      } else if (f.type === "V4") {
        events.push({ type: "ack" });
      } else {
        // A command: `<CMD>,<hhmmss>[,params]`.
        const echoTime = f.fields[0] ?? hhmmss(new Date());
        const params = f.fields.slice(1);
        const text = [f.type, ...params].join(",");
        const answer = h02Answer(text);
        events.push({
          type: "command",
          text,
          replyText: answer.join(","),
          reply: h02Reply(this.imei, answer, echoTime, current()),
        });
      }
    }
    return events;
  }
}
