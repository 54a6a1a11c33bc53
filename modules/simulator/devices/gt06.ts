/**
 * GT06 (Concox) device side: the frames a tracker sends and its reading of the server's.
 *
 * Frame: 0x7878, length (protocol number + content + serial + CRC), protocol number, content,
 * serial (2), CRC-ITU over length..serial, 0x0D0A. Written independently of the
 * gateway's decoder so that round-trip tests check both sides.
 *
 * Sent: login 0x01 (IMEI BCD, type id, time zone), location 0x22 (GPS, LBS, ACC, upload
 * mode, re-upload flag, then the Seeworld odometer tail), heartbeats 0x13 / 0x23, alarm 0x26
 * (GPS, LBS, status with the alarm), command reply 0x21 (server flag echoed).
 * Received: acknowledgements (same protocol number, empty content) and 0x80 commands.
 */
import { asciiBytes, concatBytes, type DeviceFix, latin1Text, type SimAlarm } from "../fix.ts";
import { gt06Answer } from "./answers.ts";
import type { DeviceLink, LinkEvent } from "./link.ts";
import { FrameWriter } from "./frame_writer.ts";
import type { HarshKind, SimSensors } from "../sensors.ts";

export const GT06_LOGIN = 0x01;
export const GT06_HEARTBEAT = 0x13;
export const GT06_LOCATION = 0x22;
export const GT06_HEARTBEAT_GK310 = 0x23;
export const GT06_ALARM = 0x26;
export const GT06_COMBINED = 0x16;
export const GT06_STRING_INFO = 0x21;
export const GT06_COMMAND = 0x80;

const CRC_TABLE = (() => {
  const table = new Uint16Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0x8408 : c >>> 1;
    table[n] = c;
  }
  return table;
})();

/** CRC-16/X-25 ("CRC-ITU" in the GT06 documents). */
export function crcItu(bytes: Uint8Array, start = 0, end = bytes.length): number {
  let crc = 0xffff;
  for (let i = start; i < end; i++) crc = (crc >>> 8) ^ CRC_TABLE[(crc ^ bytes[i]) & 0xff];
  return (crc ^ 0xffff) & 0xffff;
}

/** A complete frame (0x7979 long form when the content does not fit a one-byte length). */
export function gt06Frame(
  type: number,
  serial: number,
  content: Uint8Array,
  forceLong = false,
): Uint8Array {
  const length = 1 + content.length + 4;
  const long = forceLong || length > 0xff;
  const head = long ? 4 : 3;
  const out = new Uint8Array(head + length + 2);
  out[0] = out[1] = long ? 0x79 : 0x78;
  if (long) {
    out[2] = length >> 8;
    out[3] = length & 0xff;
  } else {
    out[2] = length;
  }
  out[head] = type;
  out.set(content, head + 1);
  let p = head + 1 + content.length;
  out[p++] = (serial >> 8) & 0xff;
  out[p++] = serial & 0xff;
  const crc = crcItu(out, 2, p);
  out[p++] = crc >> 8;
  out[p++] = crc & 0xff;
  out[p++] = 0x0d;
  out[p] = 0x0a;
  return out;
}

/** IMEI as 8 BCD bytes behind a leading 0 nibble. */
export function imeiBcd(imei: string): Uint8Array {
  if (!/^\d{15}$/.test(imei)) throw new RangeError("GT06 IMEI must be 15 digits");
  const digits = "0" + imei;
  return Uint8Array.from({ length: 8 }, (_, i) => (+digits[2 * i] << 4) | +digits[2 * i + 1]);
}

/** Time-zone/language word: zone hhmm in bits 15-4, bit 3 west, bits 1-0 language (2 English). */
export function timezoneWord(offsetMinutes: number): number {
  const abs = Math.abs(offsetMinutes);
  const hhmm = Math.floor(abs / 60) * 100 + (abs % 60);
  return (hhmm << 4) | (offsetMinutes < 0 ? 0x08 : 0) | 0x02;
}

/** 0x01: IMEI, type identifier, time zone. */
export function gt06Login(
  imei: string,
  serial: number,
  opts: { typeId?: number; timezoneMinutes?: number } = {},
): Uint8Array {
  const content = new FrameWriter().bytes(imeiBcd(imei)).u16(opts.typeId ?? 0x3624)
    .u16(timezoneWord(opts.timezoneMinutes ?? 0)).done();
  return gt06Frame(GT06_LOGIN, serial, content);
}

/** The 18-byte GPS block: UTC time, satellites, lat/lon (degrees × 1 800 000), km/h, course/status. */
export function gpsBlock(fix: DeviceFix): Uint8Array {
  const t = fix.time;
  let flags = Math.round(((fix.course % 360) + 360) % 360) & 0x03ff;
  if (fix.latitude >= 0) flags |= 0x0400;
  if (fix.longitude < 0) flags |= 0x0800;
  if (fix.valid) flags |= 0x1000 | 0x2000; // positioned, real-time
  return new FrameWriter()
    .u8(t.getUTCFullYear() - 2000).u8(t.getUTCMonth() + 1).u8(t.getUTCDate())
    .u8(t.getUTCHours()).u8(t.getUTCMinutes()).u8(t.getUTCSeconds())
    .u8(0xc0 | Math.min(15, Math.max(0, fix.satellites)))
    .u32(Math.round(Math.abs(fix.latitude) * 1_800_000))
    .u32(Math.round(Math.abs(fix.longitude) * 1_800_000))
    .u8(Math.min(255, Math.max(0, Math.round(fix.speedKmh))))
    .u16(flags)
    .done();
}

/** LBS block with its length byte: MCC, MNC, LAC, cell id (3 bytes). */
export function lbsBlock(fix: DeviceFix): Uint8Array {
  return new FrameWriter().u8(8).u16(fix.mcc).u8(fix.mnc).u16(fix.lac).u24(fix.cellId).done();
}

/**
 * 0x22 location: GPS, LBS, ACC, data upload mode (0 = timed), re-upload flag, then the
 * odometer tail (metres, trip seconds, temperature, humidity) some firmwares append.
 */
export function gt06Location(fix: DeviceFix, serial: number, archived = false): Uint8Array {
  const content = new FrameWriter()
    .bytes(gpsBlock(fix))
    .bytes(lbsBlock(fix))
    .u8(fix.acc ? 1 : 0)
    .u8(0x00)
    .u8(archived ? 1 : 0)
    .u32(Math.round(fix.odometerKm * 1000))
    .u32(0)
    .u16(0)
    .u16(0)
    .done();
  return gt06Frame(GT06_LOCATION, serial, content);
}

/** Terminal-information alarm bits (3-5) and the alarm byte of the status block. */
const ALARM_BITS: Record<SimAlarm, number> = { vibration: 1, powerCut: 2, sos: 4 };
const ALARM_CODES: Record<SimAlarm, number> = { sos: 0x01, powerCut: 0x02, vibration: 0x03 };

/** Terminal information byte: bit 1 ACC, 2 charging, 3-5 alarm, 6 GPS tracking on. */
export function terminalInfo(fix: DeviceFix): number {
  let info = 0x40;
  if (fix.acc) info |= 0x02 | 0x04; // the vehicle charges the backup battery while running
  if (fix.alarm) info |= ALARM_BITS[fix.alarm] << 3;
  return info;
}

/** Battery percent → the 0-6 voltage level of the status block. */
export function voltageLevel(battery: number): number {
  return Math.max(0, Math.min(6, Math.round((battery * 6) / 100)));
}

function statusBlock(fix: DeviceFix): Uint8Array {
  return new FrameWriter()
    .u8(terminalInfo(fix))
    .u8(voltageLevel(fix.battery))
    .u8(Math.max(0, Math.min(4, fix.signal)))
    .u8(fix.alarm ? ALARM_CODES[fix.alarm] : 0)
    .u8(0x02) // language: English
    .done();
}

/** Alarm-byte codes of the harsh-driving events (GT06 alarm list). */
const HARSH_CODES: Record<HarshKind, number> = {
  harshAcceleration: 0x29,
  harshBraking: 0x28,
  harshCornering: 0x2a,
};

/** 0x26 alarm packet of a harsh-driving event (GPS, LBS, status with its alarm code). */
export function gt06HarshAlarm(fix: DeviceFix, serial: number, kind: HarshKind): Uint8Array {
  const status = new FrameWriter()
    .u8(terminalInfo({ ...fix, alarm: undefined }))
    .u8(voltageLevel(fix.battery))
    .u8(Math.max(0, Math.min(4, fix.signal)))
    .u8(HARSH_CODES[kind])
    .u8(0x02)
    .done();
  return gt06Frame(GT06_ALARM, serial, concatBytes([gpsBlock(fix), lbsBlock(fix), status]));
}

/** 0x13 heartbeat / status: terminal info, voltage level, GSM signal, alarm, language. */
export function gt06Heartbeat(fix: DeviceFix, serial: number): Uint8Array {
  return gt06Frame(GT06_HEARTBEAT, serial, statusBlock(fix));
}

/** 0x23 heartbeat (GK310 family): info, battery volts ×100, GSM signal. */
export function gt06HeartbeatGk310(fix: DeviceFix, serial: number): Uint8Array {
  const volts = 3.4 + (0.8 * fix.battery) / 100;
  const info = fix.acc ? 0x02 | 0x04 : 0;
  const content = new FrameWriter().u8(info).u16(Math.round(volts * 100)).u8(fix.signal).done();
  return gt06Frame(GT06_HEARTBEAT_GK310, serial, content);
}

/**
 * GPS + LBS + status (0x26 alarm packet; 0x16 is the same layout without an alarm meaning).
 * Both are acknowledged by the server.
 */
export function gt06Alarm(fix: DeviceFix, serial: number, type = GT06_ALARM): Uint8Array {
  const content = concatBytes([gpsBlock(fix), lbsBlock(fix), statusBlock(fix)]);
  return gt06Frame(type, serial, content);
}

/** 0x21: server flag (echoed from the 0x80 command), encoding 1 (ASCII), text. */
export function gt06CommandReply(serverFlag: number, text: string, serial: number): Uint8Array {
  const content = new FrameWriter().u32(serverFlag).u8(0x01).bytes(asciiBytes(text)).done();
  return gt06Frame(GT06_STRING_INFO, serial, content);
}

export interface Gt06ServerFrame {
  type: number;
  serial: number;
  /** Content between the protocol number and the serial. */
  content: Uint8Array;
}

/** Cuts the server's byte stream into frames (acks and commands). */
export class Gt06StreamReader {
  private buf: Uint8Array = new Uint8Array(0);

  push(chunk: Uint8Array): Gt06ServerFrame[] {
    this.buf = this.buf.length ? concatBytes([this.buf, chunk]) : chunk.slice();
    const frames: Gt06ServerFrame[] = [];
    let pos = 0;
    while (pos + 5 <= this.buf.length) {
      const b = this.buf;
      if (!((b[pos] === 0x78 || b[pos] === 0x79) && b[pos + 1] === b[pos])) {
        pos++;
        continue;
      }
      const long = b[pos] === 0x79;
      const head = long ? 4 : 3;
      const length = long ? (b[pos + 2] << 8) | b[pos + 3] : b[pos + 2];
      const end = pos + head + length + 2;
      if (end > b.length) break;
      if (length >= 5) {
        const type = b[pos + head];
        const serialAt = end - 6;
        frames.push({
          type,
          serial: (b[serialAt] << 8) | b[serialAt + 1],
          content: b.slice(pos + head + 1, serialAt),
        });
      }
      pos = end;
    }
    this.buf = this.buf.slice(pos);
    return frames;
  }
}

/** The 0x80 command: length, server flag, ASCII command, language. */
export function parseGt06Command(content: Uint8Array): { serverFlag: number; text: string } | null {
  if (content.length < 5) return null;
  const declared = content[0];
  const end = Math.min(content.length, 1 + declared);
  const serverFlag = ((content[1] << 24) >>> 0) + (content[2] << 16) + (content[3] << 8) +
    content[4];
  return { serverFlag, text: latin1Text(content.subarray(5, end)) };
}

export const GT06_INFO = 0x94;
export const GT06_OBD = 0x8c;

/** The RFID card a simulated GT06 swipes: the IMEI's last 8 digits as a 32-bit id. */
export function simulatorRfidCard(imei: string): number {
  return Number(imei.slice(-8)) >>> 0;
}

/**
 * The sensor packets of a GT06 tracker with peripherals: 0x94 information (0x1E temperature and
 * humidity in tenths, 0x05 door, 0x00 supply volts) and 0x8C OBD ("id=hex×100": fuel level %,
 * rpm, coolant, speed).
 */
export function gt06SensorFrames(
  fix: DeviceFix,
  s: SimSensors,
  next: () => number,
): Uint8Array[] {
  const info = (sub: number, w: FrameWriter) =>
    gt06Frame(GT06_INFO, next(), concatBytes([Uint8Array.of(sub), w.done()]), true);
  const t = fix.time;
  const time = [t.getUTCFullYear() - 2000, t.getUTCMonth() + 1, t.getUTCDate(), t.getUTCHours()]
    .concat([t.getUTCMinutes(), t.getUTCSeconds()]);
  const hex = (v: number) => Math.round(v * 100).toString(16).toUpperCase();
  const obdText = `2B=${hex(s.fuelPercent)},36=${hex(s.rpm)},2D=${hex(s.coolant)},` +
    `35=${hex(fix.speedKmh)}`;
  return [
    info(
      0x1e,
      new FrameWriter().u32(Math.round(s.temps[0] * 10) >>> 0).u32(Math.round(s.humidity * 10)),
    ),
    info(0x05, new FrameWriter().bytes(time).u8(s.door ? 1 : 0)),
    info(0x00, new FrameWriter().u16(Math.round(s.power * 100))),
    gt06Frame(
      GT06_OBD,
      next(),
      concatBytes([
        Uint8Array.from([...time, fix.acc ? 1 : 0]),
        asciiBytes(obdText),
        new Uint8Array(12),
      ]),
    ),
  ];
}

/** One GT06 tracker's side of a connection. */
export class Gt06Link implements DeviceLink {
  readonly protocol = "gt06";
  private serial = 0;
  private reader = new Gt06StreamReader();

  constructor(readonly imei: string) {}

  private next(): number {
    this.serial = (this.serial + 1) & 0xffff;
    return this.serial;
  }

  hello(): Uint8Array[] {
    return [gt06Login(this.imei, this.next())];
  }

  position(fix: DeviceFix, archived = false): Uint8Array {
    const location = gt06Location(fix, this.next(), archived);
    if (!fix.sensors || archived) return location;
    // A harsh event goes as its alarm packet; every third live report brings the sensor
    // packets along (in the same write).
    const frames = [location];
    if (fix.sensors.harsh) frames.push(gt06HarshAlarm(fix, this.next(), fix.sensors.harsh));
    if (this.serial % 3 === 0) {
      frames.push(...gt06SensorFrames(fix, fix.sensors, () => this.next()));
    }
    return frames.length === 1 ? location : concatBytes(frames);
  }

  /** 0x94 RFID reader packet with the device's card (simulatorRfidCard), in and out alike. */
  driverSwipe(_fix: DeviceFix, _inserted: boolean): Uint8Array {
    const id = simulatorRfidCard(this.imei);
    const data = [0x02, 0x01, ...[24, 16, 8, 0].map((s) => (id >>> s) & 0xff), 0x00, 0x03];
    return gt06Frame(GT06_INFO, this.next(), Uint8Array.from([0x1b, ...data]), true);
  }

  backlog(fixes: DeviceFix[]): Uint8Array[] {
    return fixes.map((f) => this.position(f, true));
  }

  heartbeat(fix: DeviceFix): Uint8Array {
    return gt06Heartbeat(fix, this.next());
  }

  alarm(fix: DeviceFix): Uint8Array {
    return gt06Alarm(fix, this.next());
  }

  receive(chunk: Uint8Array, current: () => DeviceFix): LinkEvent[] {
    const events: LinkEvent[] = [];
    for (const f of this.reader.push(chunk)) {
      if (f.type === GT06_COMMAND) {
        const command = parseGt06Command(f.content);
        if (!command) continue;
        const replyText = gt06Answer(command.text, current());
        events.push({
          type: "command",
          text: command.text,
          replyText,
          reply: gt06CommandReply(command.serverFlag, replyText, this.next()),
        });
      } else if (f.type === GT06_LOGIN) {
        events.push({ type: "ready" });
      } else {
        events.push({ type: "ack" });
      }
    }
    return events;
  }
}
