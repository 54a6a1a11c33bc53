/**
 * Reassembly of subpackaged multimedia uploads (0x0801: a picture is always larger than one
 * frame's 1023-byte body). Parts are kept per connection in `session.extra` until the last one
 * arrives; other subpackaged messages stay "not supported". Bounded: at most MAX_PARTS parts
 * and MAX_BYTES in all; a new upload replaces an unfinished one.
 */
import type { ProtocolSession } from "../types.ts";
import type { Header } from "./header.ts";

const REASSEMBLED = new Set([0x0801]);
const MAX_PARTS = 2048;
const MAX_BYTES = 2 * 1024 * 1024;
const KEY = "jt808Parts";

interface Parts {
  msgId: number;
  total: number;
  parts: Map<number, Uint8Array>;
  bytes: number;
}

export function reassembles(header: Header): boolean {
  return header.subpackage && REASSEMBLED.has(header.msgId) &&
    (header.packetTotal ?? 0) > 0 && (header.packetTotal ?? 0) <= MAX_PARTS;
}

/**
 * Adds one part (1-based index); answers the whole body once every part is there, else null.
 * A part outside 1..total, or an upload growing past MAX_BYTES, drops the upload.
 */
export function addPart(
  session: ProtocolSession,
  header: Header,
  body: Uint8Array,
): Uint8Array | null {
  const total = header.packetTotal!, index = header.packetIndex ?? 0;
  let p = session.extra[KEY] as Parts | undefined;
  if (!p || p.msgId !== header.msgId || p.total !== total || index === 1) {
    p = { msgId: header.msgId, total, parts: new Map(), bytes: 0 };
    session.extra[KEY] = p;
  }
  if (index < 1 || index > total || p.bytes + body.length > MAX_BYTES) {
    delete session.extra[KEY];
    return null;
  }
  if (!p.parts.has(index)) p.bytes += body.length;
  p.parts.set(index, body.slice());
  if (p.parts.size < total) return null;
  delete session.extra[KEY];
  const whole = new Uint8Array(p.bytes);
  let at = 0;
  for (let i = 1; i <= total; i++) {
    const part = p.parts.get(i)!;
    whole.set(part, at);
    at += part.length;
  }
  return whole;
}
