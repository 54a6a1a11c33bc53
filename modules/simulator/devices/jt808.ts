/**
 * JT/T 808-2013 terminal side.
 *
 * Frame: 0x7E, escaped(header + body + XOR check code), 0x7E; 0x7E ↔ 0x7D 0x02 and
 * 0x7D ↔ 0x7D 0x01. Header: message id, properties (body length), BCD terminal phone
 * (6 bytes; the simulator uses the IMEI's last 12 digits), serial.
 *
 * Sent: register 0x0100, authentication 0x0102 (with the code from 0x8100), heartbeat 0x0002,
 * location 0x0200 (alarm/status words, extra items mileage 0x01, CSQ 0x30, satellites 0x31,
 * battery 0xD4), batch 0x0704, general reply 0x0001, location query answer 0x0201.
 * Received: 0x8001 (acknowledgements), 0x8100 (registration result), 0x8300 text, 0x8105
 * terminal control and 0x8103 set parameters (answered with 0x0001 carrying the server's
 * serial), 0x8201 position query (answered with 0x0201: that serial + the current location).
 */
import { asciiBytes, concatBytes, type DeviceFix, latin1Text, type SimAlarm } from "../fix.ts";
import { jt808TerminalNumber } from "../imei.ts";
import type { DeviceLink, LinkEvent } from "./link.ts";
import { FrameWriter } from "./frame_writer.ts";
import type { SimSensors } from "../sensors.ts";
import { Jt808VideoTerminal, type VideoTerminalOptions } from "./jt808_video.ts";

export const JT = {
  TERMINAL_REPLY: 0x0001,
  HEARTBEAT: 0x0002,
  REGISTER: 0x0100,
  AUTH: 0x0102,
  LOCATION: 0x0200,
  DRIVER_IDENTITY: 0x0702,
  BATCH: 0x0704,
  TRANSPARENT: 0x0900,
  PLATFORM_REPLY: 0x8001,
  REGISTER_REPLY: 0x8100,
  LOCATION_QUERY_REPLY: 0x0201,
  SET_PARAMETERS: 0x8103,
  TERMINAL_CONTROL: 0x8105,
  POSITION_QUERY: 0x8201,
  TEXT: 0x8300,
} as const;

/** JT/T 808 terminals report local Beijing time unless configured otherwise. */
export const JT808_TZ_MINUTES = 8 * 60;

export function bcd(digits: string, size: number): Uint8Array {
  const d = digits.padStart(size * 2, "0").slice(-size * 2);
  return Uint8Array.from({ length: size }, (_, i) => (+d[2 * i] << 4) | +d[2 * i + 1]);
}

/** YYMMDDhhmmss BCD in the terminal's local time. */
export function bcdTime(time: Date, tzMinutes = JT808_TZ_MINUTES): Uint8Array {
  const t = new Date(time.getTime() + tzMinutes * 60_000);
  const two = (n: number) => String(n).padStart(2, "0");
  return bcd(
    two(t.getUTCFullYear() % 100) + two(t.getUTCMonth() + 1) + two(t.getUTCDate()) +
      two(t.getUTCHours()) + two(t.getUTCMinutes()) + two(t.getUTCSeconds()),
    6,
  );
}

export function escapeJt808(content: Uint8Array): Uint8Array {
  const out: number[] = [];
  for (const b of content) {
    if (b === 0x7e) out.push(0x7d, 0x02);
    else if (b === 0x7d) out.push(0x7d, 0x01);
    else out.push(b);
  }
  return Uint8Array.from(out);
}

export function unescapeJt808(escaped: Uint8Array): Uint8Array {
  const out: number[] = [];
  for (let i = 0; i < escaped.length; i++) {
    const b = escaped[i];
    if (
      b === 0x7d && i + 1 < escaped.length && (escaped[i + 1] === 0x01 || escaped[i + 1] === 0x02)
    ) {
      out.push(escaped[++i] === 0x02 ? 0x7e : 0x7d);
    } else {
      out.push(b);
    }
  }
  return Uint8Array.from(out);
}

/** Header + body + XOR check code, escaped between flags. */
export function jt808Frame(
  msgId: number,
  terminal: string,
  serial: number,
  body: Uint8Array,
): Uint8Array {
  if (body.length > 0x3ff) throw new RangeError("JT/T 808 body longer than 1023 bytes");
  const content = new FrameWriter().u16(msgId).u16(body.length).bytes(bcd(terminal, 6))
    .u16(serial & 0xffff).bytes(body).done();
  let xor = 0;
  for (const b of content) xor ^= b;
  const escaped = escapeJt808(concatBytes([content, Uint8Array.of(xor)]));
  const out = new Uint8Array(escaped.length + 2);
  out[0] = 0x7e;
  out.set(escaped, 1);
  out[out.length - 1] = 0x7e;
  return out;
}

/** 0x0100: province, city, manufacturer (5), model (20), terminal id (7), plate colour, plate. */
export function jt808Register(
  terminal: string,
  serial: number,
  opts: { model?: string; plate?: string } = {},
): Uint8Array {
  const body = new FrameWriter()
    .u16(44) // Guangdong
    .u16(300) // Shenzhen
    .fixed(asciiBytes("SIMUL"), 5)
    .fixed(asciiBytes(opts.model ?? "SIM-808"), 20)
    .fixed(asciiBytes(terminal.slice(-7)), 7)
    .u8(1) // blue plate
    .bytes(asciiBytes(opts.plate ?? `SIM${terminal.slice(-5)}`))
    .done();
  return jt808Frame(JT.REGISTER, terminal, serial, body);
}

/** 0x0102 (2013): the body is the authentication code. */
export function jt808Auth(terminal: string, serial: number, authCode: string): Uint8Array {
  return jt808Frame(JT.AUTH, terminal, serial, asciiBytes(authCode));
}

/** A driver's IC card as a JT/T 808 terminal reads it (0x0702). */
export interface DriverCard {
  name: string;
  /** Qualification certificate code (20 bytes on the wire). */
  code: string;
  issuer: string;
  /** YYYY-MM-DD */
  validity: string;
}

/**
 * The IC card of a simulated device's driver: one per device, so a platform user can add the
 * driver with this certificate code as the RFID card number and see the swipes linked.
 */
export function simulatorDriverCard(imei: string): DriverCard {
  return {
    name: `Driver ${imei.slice(-4)}`,
    code: `SIM${imei.slice(-8)}`,
    issuer: "SIM DOT",
    validity: "2030-12-31",
  };
}

/**
 * 0x0702 driver identity (2013): BYTE state (1 card inserted, 2 removed), BCD[6] time; on
 * insertion BYTE read result (0 ok), BYTE+name, STRING[20] certificate code, BYTE+issuing
 * body, BCD[4] validity YYYYMMDD. Names are written as ASCII (GBK for ASCII is the same).
 */
export function jt808DriverIdentity(
  terminal: string,
  serial: number,
  swipe: { inserted: boolean; time: Date; card?: DriverCard },
): Uint8Array {
  const w = new FrameWriter().u8(swipe.inserted ? 1 : 2).bytes(bcdTime(swipe.time));
  if (swipe.inserted && swipe.card) {
    const name = asciiBytes(swipe.card.name);
    const issuer = asciiBytes(swipe.card.issuer);
    w.u8(0).u8(name.length).bytes(name).fixed(asciiBytes(swipe.card.code), 20)
      .u8(issuer.length).bytes(issuer).bytes(bcd(swipe.card.validity.replaceAll("-", ""), 4));
  }
  return jt808Frame(JT.DRIVER_IDENTITY, terminal, serial, w.done());
}

/**
 * 0x0900 transparent type 0x53, a BLE gateway's report: status, coordinates, altitude, speed,
 * course, BCD time, then the tags in range (index, MAC, RSSI, no data).
 */
export function jt808BleTags(
  terminal: string,
  serial: number,
  fix: DeviceFix,
  macs: string[],
): Uint8Array {
  const block = locationBlock(fix);
  // The location block without its alarm word and extra items: status … time (24 bytes).
  const w = new FrameWriter().u8(0x53).bytes(block.subarray(4, 28)).u8(macs.length);
  macs.forEach((mac, i) => {
    w.u8(i);
    for (let b = 0; b < 6; b++) w.u8(parseInt(mac.slice(b * 2, b * 2 + 2), 16));
    w.u8(0xc4).u8(0); // RSSI -60 dBm, no data
  });
  return jt808Frame(JT.TRANSPARENT, terminal, serial, w.done());
}

/**
 * The Bluetooth badge of a simulated device's driver (a BLE tag's MAC, 12 hex digits): one per
 * device, like its IC card, so the Bluetooth clock-in report has a driver to show.
 */
export function simulatorBadge(imei: string): string {
  return `C0FFEE${imei.slice(-6)}`;
}

/** 0x0002: empty in the standard; with `withReadings` the common vendor tail (battery %, CSQ, status). */
export function jt808Heartbeat(
  terminal: string,
  serial: number,
  fix?: DeviceFix,
): Uint8Array {
  const body = fix
    ? new FrameWriter().u8(fix.battery).u8(csqOf(fix.signal)).u8(fix.acc ? 1 : 0).done()
    : new Uint8Array(0);
  return jt808Frame(JT.HEARTBEAT, terminal, serial, body);
}

const ALARM_BITS: Record<SimAlarm, number> = { sos: 0, powerCut: 8, vibration: 15 };

/** Signal level 0-4 → a CSQ value the decoder maps back to the same level. */
export function csqOf(signal: number): number {
  return [2, 7, 12, 17, 25][Math.max(0, Math.min(4, signal))];
}

/** The location block: alarm, status, coordinates, altitude, speed, course, time, extra items. */
export function locationBlock(fix: DeviceFix, tzMinutes = JT808_TZ_MINUTES): Uint8Array {
  const alarm = fix.alarm ? 2 ** ALARM_BITS[fix.alarm] : 0;
  let status = 0;
  if (fix.acc) status |= 1 << 0;
  if (fix.valid) status |= 1 << 1;
  if (fix.latitude < 0) status |= 1 << 2;
  if (fix.longitude < 0) status |= 1 << 3;
  if (fix.sensors?.door) status |= 1 << 13; // door 1 open
  const w = new FrameWriter()
    .u32(alarm)
    .u32(status)
    .u32(Math.round(Math.abs(fix.latitude) * 1e6))
    .u32(Math.round(Math.abs(fix.longitude) * 1e6))
    .u16(Math.round(fix.altitude) & 0xffff)
    .u16(Math.round(fix.speedKmh * 10))
    .u16(Math.round(((fix.course % 360) + 360) % 360))
    .bytes(bcdTime(fix.time, tzMinutes))
    // Extra items: id, length, value.
    .u8(0x01).u8(4).u32(Math.round(fix.odometerKm * 10)) // mileage, 1/10 km
    .u8(0x30).u8(1).u8(csqOf(fix.signal)) // CSQ
    .u8(0x31).u8(1).u8(fix.satellites) // satellites
    .u8(0xd4).u8(1).u8(Math.round(fix.battery)); // battery % (vendor item)
  if (fix.sensors) sensorItems(w, fix.sensors);
  return w.done();
}

/** Sign bit + magnitude in tenths (the 0x51 temperature item). */
const signTenths = (c: number) => (c < 0 ? 0x8000 : 0) | Math.round(Math.abs(c) * 10);

/**
 * The sensor items: fuel 0x02 (1/10 L), the fuel sensor's volts on AD0 (0x2B, 1/100 V),
 * temperature probes 0x51 (8 words, 0xFFFF absent), humidity 0xF7, supply volts 0xD3, OBD
 * parameters 0xF3 (rpm, coolant, load), fault codes 0xA0, a harsh event 0x57.
 */
function sensorItems(w: FrameWriter, s: SimSensors): void {
  w.u8(0x02).u8(2).u16(Math.round(s.fuelLitres * 10));
  w.u8(0x2b).u8(4).u16(0).u16(Math.round(s.fuelVolts * 100));
  w.u8(0x51).u8(16).u16(signTenths(s.temps[0])).u16(signTenths(s.temps[1]));
  for (let i = 2; i < 8; i++) w.u16(0xffff);
  w.u8(0xf7).u8(2).u16(Math.round(s.humidity * 10));
  w.u8(0xd3).u8(2).u16(Math.round(s.power * 10));
  w.u8(0xf3).u8(15)
    .u16(0x0003).u8(2).u16(s.rpm)
    .u16(0x0009).u8(2).u16(s.coolant + 40)
    .u16(0x0008).u8(2).u16(s.engineLoad * 10);
  if (s.faults) w.u8(0xa0).u8(s.faults.length).bytes(asciiBytes(s.faults));
  if (s.harsh) {
    const bit = { harshAcceleration: 0x0100, harshBraking: 0x0200, harshCornering: 0x0400 };
    w.u8(0x57).u8(8).u16(bit[s.harsh]).u16(0).u32(0);
  }
}

export function jt808Location(terminal: string, serial: number, fix: DeviceFix): Uint8Array {
  return jt808Frame(JT.LOCATION, terminal, serial, locationBlock(fix));
}

/** 0x0201: the serial of the platform's 0x8201 position query, then the location block. */
export function jt808LocationReply(
  terminal: string,
  serial: number,
  querySerial: number,
  fix: DeviceFix,
): Uint8Array {
  const body = concatBytes([new FrameWriter().u16(querySerial).done(), locationBlock(fix)]);
  return jt808Frame(JT.LOCATION_QUERY_REPLY, terminal, serial, body);
}

/** 0x0704: count, type (0 regular, 1 blind-area re-upload), then WORD-length location blocks. */
export function jt808Batch(
  terminal: string,
  serial: number,
  fixes: DeviceFix[],
  archived = true,
): Uint8Array {
  const w = new FrameWriter().u16(fixes.length).u8(archived ? 1 : 0);
  for (const fix of fixes) {
    const block = locationBlock(fix);
    w.u16(block.length).bytes(block);
  }
  return jt808Frame(JT.BATCH, terminal, serial, w.done());
}

/** 0x0001: the platform message's serial and id, and a result (0 success). */
export function jt808GeneralReply(
  terminal: string,
  serial: number,
  replySerial: number,
  replyMsgId: number,
  result = 0,
): Uint8Array {
  const body = new FrameWriter().u16(replySerial).u16(replyMsgId).u8(result).done();
  return jt808Frame(JT.TERMINAL_REPLY, terminal, serial, body);
}

export interface Jt808ServerFrame {
  msgId: number;
  serial: number;
  terminal: string;
  body: Uint8Array;
  checkOk: boolean;
}

/** Parses one unescaped frame content (between the flags). */
export function parseJt808Content(content: Uint8Array): Jt808ServerFrame | null {
  if (content.length < 13) return null;
  const msgId = (content[0] << 8) | content[1];
  const props = (content[2] << 8) | content[3];
  const is2019 = (props & 0x4000) !== 0;
  const termAt = is2019 ? 5 : 4;
  const termLen = is2019 ? 10 : 6;
  const serialAt = termAt + termLen;
  if (content.length < serialAt + 3) return null;
  let terminal = "";
  for (const b of content.subarray(termAt, serialAt)) {
    terminal += (b >> 4).toString(16) + (b & 0x0f).toString(16);
  }
  let xor = 0;
  for (let i = 0; i < content.length - 1; i++) xor ^= content[i];
  return {
    msgId,
    serial: (content[serialAt] << 8) | content[serialAt + 1],
    terminal,
    body: content.slice(serialAt + 2, content.length - 1),
    checkOk: xor === content[content.length - 1],
  };
}

/** Cuts the server's byte stream at the 0x7E flags. */
export class Jt808StreamReader {
  private buf: Uint8Array = new Uint8Array(0);

  push(chunk: Uint8Array): Jt808ServerFrame[] {
    this.buf = this.buf.length ? concatBytes([this.buf, chunk]) : chunk.slice();
    const frames: Jt808ServerFrame[] = [];
    let pos = 0;
    for (;;) {
      const start = this.buf.indexOf(0x7e, pos);
      if (start < 0) {
        pos = this.buf.length;
        break;
      }
      const end = this.buf.indexOf(0x7e, start + 1);
      if (end < 0) {
        pos = start;
        break;
      }
      if (end === start + 1) {
        pos = end; // back-to-back flags: the second opens the next frame
        continue;
      }
      const frame = parseJt808Content(unescapeJt808(this.buf.subarray(start + 1, end)));
      if (frame) frames.push(frame);
      pos = end + 1;
    }
    this.buf = this.buf.slice(pos);
    return frames;
  }
}

/** One JT/T 808 terminal's side of a connection: register once, then authenticate. */
export class Jt808Link implements DeviceLink {
  readonly protocol = "jt808";
  readonly terminal: string;
  private serial = 0;
  private reader = new Jt808StreamReader();
  /** Kept across reconnections: a registered terminal only authenticates again. */
  private authCode: string | null = null;
  private authSerial = -1;

  /** The dashcam side (`simulate --video`): JT/T 1078 requests and ADAS alarms. */
  readonly video: Jt808VideoTerminal | null;

  constructor(readonly imei: string, video?: VideoTerminalOptions) {
    this.terminal = jt808TerminalNumber(imei);
    this.video = video ? new Jt808VideoTerminal(this.terminal, () => this.next(), video) : null;
  }

  private next(): number {
    this.serial = (this.serial + 1) & 0xffff;
    return this.serial;
  }

  /** A new connection starts a new dialogue (the stream reader too). */
  hello(): Uint8Array[] {
    this.reader = new Jt808StreamReader();
    if (this.authCode !== null) return [this.auth()];
    return [jt808Register(this.terminal, this.next())];
  }

  private auth(): Uint8Array {
    this.authSerial = this.next();
    return jt808Auth(this.terminal, this.authSerial, this.authCode ?? "");
  }

  position(fix: DeviceFix): Uint8Array {
    const adas = this.video?.alarmItem(fix.time);
    if (!adas) return jt808Location(this.terminal, this.next(), fix);
    const body = concatBytes([locationBlock(fix), adas]);
    return jt808Frame(JT.LOCATION, this.terminal, this.next(), body);
  }

  /**
   * Blind-area re-upload in 0x0704 batches of at most 20, 7 with sensor items (bodies stay under
   * 1023 bytes).
   */
  backlog(fixes: DeviceFix[]): Uint8Array[] {
    const frames: Uint8Array[] = [];
    const size = fixes.some((f) => f.sensors) ? 7 : 20;
    for (let i = 0; i < fixes.length; i += size) {
      frames.push(jt808Batch(this.terminal, this.next(), fixes.slice(i, i + size), true));
    }
    return frames;
  }

  heartbeat(fix: DeviceFix): Uint8Array {
    return jt808Heartbeat(this.terminal, this.next(), fix);
  }

  /** 0x0702 with the device's driver card (simulatorDriverCard) on insertion. */
  driverSwipe(fix: DeviceFix, inserted: boolean): Uint8Array {
    return jt808DriverIdentity(this.terminal, this.next(), {
      inserted,
      time: fix.time,
      card: inserted ? simulatorDriverCard(this.imei) : undefined,
    });
  }

  /** While the ignition is on the driver's badge is in the cab: a BLE report that names it. */
  badges(fix: DeviceFix): Uint8Array {
    return jt808BleTags(this.terminal, this.next(), fix, [simulatorBadge(this.imei)]);
  }

  alarm(fix: DeviceFix): Uint8Array {
    return this.position(fix);
  }

  receive(chunk: Uint8Array, current: () => DeviceFix): LinkEvent[] {
    const events: LinkEvent[] = [];
    for (const f of this.reader.push(chunk)) {
      switch (f.msgId) {
        case JT.REGISTER_REPLY: {
          // WORD reply serial, BYTE result, then the auth code when the result is 0.
          if (f.body.length < 3 || f.body[2] !== 0) break;
          this.authCode = latin1Text(f.body.subarray(3));
          events.push({ type: "send", frame: this.auth() });
          break;
        }
        case JT.PLATFORM_REPLY: {
          const replySerial = f.body.length >= 2 ? (f.body[0] << 8) | f.body[1] : -1;
          const replyId = f.body.length >= 4 ? (f.body[2] << 8) | f.body[3] : -1;
          if (replyId === JT.AUTH && replySerial === this.authSerial) {
            if (f.body[4] === 0) events.push({ type: "ready" });
            else this.authCode = null; // refused: register again next time
          } else {
            events.push({ type: "ack" });
          }
          break;
        }
        case JT.TEXT: {
          // BYTE flag, then the text (2013).
          const text = latin1Text(f.body.subarray(1));
          events.push({
            type: "command",
            text,
            replyText: "0x8300 success",
            reply: jt808GeneralReply(this.terminal, this.next(), f.serial, f.msgId, 0),
          });
          break;
        }
        case JT.TERMINAL_CONTROL: {
          const word = f.body[0] ?? 0;
          events.push({
            type: "command",
            text: `terminal control ${word}${
              f.body.length > 1 ? " " + latin1Text(f.body.subarray(1)) : ""
            }`,
            replyText: "0x8105 success",
            reply: jt808GeneralReply(this.terminal, this.next(), f.serial, f.msgId, 0),
          });
          break;
        }
        case JT.SET_PARAMETERS: {
          // BYTE count, then (DWORD id, BYTE length, value); accepted as they come.
          events.push({
            type: "command",
            text: `set parameters ${hexOf(f.body.subarray(1))}`,
            replyText: "0x8103 success",
            reply: jt808GeneralReply(this.terminal, this.next(), f.serial, f.msgId, 0),
          });
          break;
        }
        case JT.POSITION_QUERY: {
          const fix = current();
          events.push({
            type: "command",
            text: "position query",
            replyText: `location ${fix.latitude.toFixed(6)},${fix.longitude.toFixed(6)}`,
            reply: jt808LocationReply(this.terminal, this.next(), f.serial, fix),
          });
          break;
        }
        default: {
          const video = this.video?.handle(f);
          if (video) {
            events.push(...video);
            break;
          }
          // Anything else the platform asks: "not supported" keeps it from waiting.
          if (f.msgId >= 0x8000) {
            events.push({
              type: "send",
              frame: jt808GeneralReply(this.terminal, this.next(), f.serial, f.msgId, 3),
            });
          }
        }
      }
    }
    return events;
  }
}

function hexOf(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
