/**
 * JT/T 1078-2016 stream packets (table 19): `30 31 63 64`, V/P/X/CC, M + PT, sequence, SIM
 * BCD[6] (or BCD[10] from 2019 terminals), logical channel, data type + sub-package flag, 8-byte ms timestamp (absent for
 * passthrough), last I-frame / last frame intervals (video only), body length, body.
 * {@link PacketSplitter} cuts a TCP byte stream into packets with bounded memory and resyncs on
 * garbage by scanning for the next header.
 */
import { terminalId } from "../../gateway/protocols/jt808/identity.ts";

export const MAGIC = [0x30, 0x31, 0x63, 0x64] as const;
/** The standard caps one packet's body at 950 bytes. */
export const MAX_BODY = 950;

/** Data type (high nibble of byte 15). */
export const DataType = { I: 0, P: 1, B: 2, Audio: 3, Passthrough: 4 } as const;
/** Sub-package flag (low nibble of byte 15): note last = 2, middle = 3. */
export const SubFlag = { Atomic: 0, First: 1, Last: 2, Middle: 3 } as const;

export interface Packet {
  marker: boolean;
  /** Payload type (table 12): 98 H.264, 99 H.265, 6 G.711A, 7 G.711U, 8 G.726, 19 AAC… */
  payloadType: number;
  sequence: number;
  sim: string;
  channel: number;
  dataType: number;
  subFlag: number;
  /** Milliseconds (the terminal's clock); 0 for passthrough. */
  timestamp: number;
  lastIFrameInterval: number;
  lastFrameInterval: number;
  body: Uint8Array;
}

/**
 * SIM field size: BCD[6] in JT/T 1078-2016; terminals paired with JT/T 808-2019 often send the
 * 2019 phone number's BCD[10] (every later field 4 bytes further). Detected per connection.
 */
export type SimLength = 6 | 10;

/** Header bytes before the body for a data type (byte 15's high nibble, with a BCD[6] SIM). */
export function headerLength(dataType: number, simLength: SimLength = 6): number {
  const extra = simLength - 6;
  if (dataType === DataType.Passthrough) return 18 + extra;
  if (dataType === DataType.Audio) return 26 + extra;
  return 30 + extra;
}

/**
 * Parses the packet starting at `at`. Returns the packet and its total length, "short" when more
 * bytes are needed, or "bad" when the bytes at `at` are not a packet.
 */
export function parsePacket(
  buf: Uint8Array,
  at: number,
  end: number,
  simLength: SimLength = 6,
): { packet: Packet; length: number } | "short" | "bad" {
  const x = simLength - 6;
  if (end - at < 16 + x) return startsWithMagic(buf, at, end) ? "short" : "bad";
  if (!startsWithMagic(buf, at, end)) return "bad";
  const dataType = buf[at + 15 + x] >> 4;
  const subFlag = buf[at + 15 + x] & 0x0f;
  if (dataType > 4 || subFlag > 3) return "bad";
  const head = headerLength(dataType, simLength);
  if (end - at < head) return "short";
  const bodyLength = (buf[at + head - 2] << 8) | buf[at + head - 1];
  if (bodyLength > MAX_BODY) return "bad";
  if (end - at < head + bodyLength) return "short";
  const view = new DataView(buf.buffer, buf.byteOffset + at, head);
  const video = dataType <= DataType.B;
  const packet: Packet = {
    marker: (buf[at + 5] & 0x80) !== 0,
    payloadType: buf[at + 5] & 0x7f,
    sequence: view.getUint16(6),
    sim: simOf(buf.subarray(at + 8, at + 14 + x)),
    channel: buf[at + 14 + x],
    dataType,
    subFlag,
    timestamp: dataType === DataType.Passthrough ? 0 : Number(view.getBigUint64(16 + x)),
    lastIFrameInterval: video ? view.getUint16(24 + x) : 0,
    lastFrameInterval: video ? view.getUint16(26 + x) : 0,
    body: buf.slice(at + head, at + head + bodyLength),
  };
  return { packet, length: head + bodyLength };
}

/**
 * The gateway's terminal id of the SIM field; a BCD[10] (2019) number keeps its last 12 digits,
 * the 2016 form the JT/T 808 link matches (modules/video/paths.ts simOf).
 */
function simOf(field: Uint8Array): string {
  const id = terminalId(field);
  return field.length === 10 && /^\d{20}$/.test(id) ? id.slice(-12) : id;
}

function startsWithMagic(buf: Uint8Array, at: number, end: number): boolean {
  for (let i = 0; i < 4 && at + i < end; i++) if (buf[at + i] !== MAGIC[i]) return false;
  return true;
}

/** Longest packet: video header + MAX_BODY. */
const MAX_PACKET = 34 + MAX_BODY;

/**
 * Cuts a byte stream into packets. Holds at most one partial packet (≤ 980 bytes) between
 * pushes; bytes that are not a packet are skipped up to the next header and counted.
 */
export class PacketSplitter {
  #pending = new Uint8Array(0);
  /** Bytes skipped while looking for a header (garbage, oversized or malformed packets). */
  skipped = 0;
  /** The connection's SIM field size, once a packet followed by another header showed it. */
  simLength: SimLength | null = null;

  push(chunk: Uint8Array): Packet[] {
    const buf = this.#pending.length ? concat(this.#pending, chunk) : chunk;
    const out: Packet[] = [];
    let at = 0;
    while (at < buf.length) {
      const r = this.simLength
        ? parsePacket(buf, at, buf.length, this.simLength)
        : this.#detect(buf, at);
      if (r === "short") break;
      if (r === "bad") {
        const next = findMagic(buf, at + 1);
        this.skipped += next - at;
        at = next;
        continue;
      }
      out.push(r.packet);
      at += r.length;
    }
    const rest = buf.length - at;
    if (rest > MAX_PACKET) throw new Error("unreachable: partial packet over the bound");
    this.#pending = rest ? buf.slice(at) : new Uint8Array(0);
    return out;
  }

  /**
   * Parses with both SIM sizes; the size whose packet is followed by the next header is the
   * connection's from then on.
   */
  #detect(buf: Uint8Array, at: number): ReturnType<typeof parsePacket> {
    const six = parsePacket(buf, at, buf.length, 6);
    const ten = parsePacket(buf, at, buf.length, 10);
    const follows = (r: ReturnType<typeof parsePacket>) =>
      typeof r === "object" && buf.length - (at + r.length) >= 4 &&
      startsWithMagic(buf, at + r.length, buf.length);
    if (follows(six)) {
      this.simLength = 6;
      return six;
    }
    if (follows(ten)) {
      this.simLength = 10;
      return ten;
    }
    // Undecided: read as the standard's BCD[6]; BCD[10] only once a following header proves it.
    if (typeof six === "object") return six;
    if (six === "short" || ten === "short") return "short";
    return "bad";
  }
}

/** Index of the next possible header start at or after `from` (a partial magic at the end counts). */
function findMagic(buf: Uint8Array, from: number): number {
  for (let i = from; i < buf.length; i++) {
    if (buf[i] !== 0x30) continue;
    if (startsWithMagic(buf, i, buf.length)) return i;
  }
  return buf.length;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/** Builds one packet (the simulator's streamer and the tests): `simBcd` BCD[6] or BCD[10]. */
export function encodePacket(p: Omit<Packet, "sim"> & { simBcd: Uint8Array }): Uint8Array {
  const simLength: SimLength = p.simBcd.length === 10 ? 10 : 6;
  const x = simLength - 6;
  const head = headerLength(p.dataType, simLength);
  const out = new Uint8Array(head + p.body.length);
  const view = new DataView(out.buffer);
  out.set(MAGIC, 0);
  out[4] = 0x81; // V=2, P=0, X=0, CC=1
  out[5] = (p.marker ? 0x80 : 0) | (p.payloadType & 0x7f);
  view.setUint16(6, p.sequence & 0xffff);
  out.set(p.simBcd.subarray(0, simLength), 8);
  out[14 + x] = p.channel;
  out[15 + x] = (p.dataType << 4) | p.subFlag;
  if (p.dataType !== DataType.Passthrough) view.setBigUint64(16 + x, BigInt(p.timestamp));
  if (p.dataType <= DataType.B) {
    view.setUint16(24 + x, p.lastIFrameInterval);
    view.setUint16(26 + x, p.lastFrameInterval);
  }
  view.setUint16(head - 2, p.body.length);
  out.set(p.body, head);
  return out;
}
