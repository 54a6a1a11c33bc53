/**
 * JT/T 808 message header (after unescaping, without the 0x7E flags):
 *
 *   WORD msgId | WORD properties | [BYTE protocolVersion, 2019] | BCD terminal phone (6 | 10)
 *   | WORD serial | [WORD total, WORD index, if subpackaged]
 *
 * properties: bits 0-9 body length, 10-12 encryption (bit 10 = RSA), 13 subpackage,
 * 14 version flag (set by 2019 terminals), 15 reserved.
 */
import { ByteReader, ByteWriter } from "./bytes.ts";
import { MsgId } from "./constants.ts";

export interface Header {
  msgId: number;
  /** Body length declared in the properties word (devices get it wrong sometimes). */
  bodyLength: number;
  encrypted: boolean;
  subpackage: boolean;
  /** Protocol version byte of a 2019 frame, null for 2013. */
  version: number | null;
  /** Raw terminal phone bytes (6 in 2013, 10 in 2019), echoed verbatim in replies. */
  terminal: Uint8Array;
  serial: number;
  packetTotal?: number;
  packetIndex?: number;
  /** Raw properties word (vendor messages give other meanings to bits 10-15). */
  properties: number;
}

/** Vendor lock messages (JT701 family) carry a 1-byte serial instead of a WORD. */
function hasShortSerial(msgId: number): boolean {
  return msgId === MsgId.LOCK_LOCATION || msgId === MsgId.LOCK_LOCATION_BLIND;
}

/**
 * Reads the header; throws Truncated when the content is too short. `as2013`: bit 14 is not
 * the 2019 version flag on this connection (a vendor's use of the reserved bit).
 */
export function readHeader(r: ByteReader, as2013 = false): Header {
  const msgId = r.u16();
  const properties = r.u16();
  const vendor = hasShortSerial(msgId);
  const version = !vendor && !as2013 && (properties & 0x4000) !== 0 ? r.u8() : null;
  const terminal = r.bytes(version === null ? 6 : 10);
  const serial = vendor ? r.u8() : r.u16();
  const subpackage = !vendor && (properties & 0x2000) !== 0;
  const header: Header = {
    msgId,
    bodyLength: properties & 0x03ff,
    encrypted: !vendor && (properties & 0x1c00) !== 0,
    subpackage,
    version,
    terminal,
    serial,
    properties,
  };
  if (subpackage) {
    header.packetTotal = r.u16();
    header.packetIndex = r.u16();
  }
  return header;
}

export interface OutgoingHeader {
  msgId: number;
  bodyLength: number;
  version: number | null;
  terminal: Uint8Array;
  serial: number;
  /** Vendor lock replies (0x4401) use a 1-byte serial. */
  shortSerial?: boolean;
}

export function writeHeader(w: ByteWriter, h: OutgoingHeader): void {
  if (h.bodyLength > 0x03ff) throw new RangeError("JT/T 808 body longer than 1023 bytes");
  w.u16(h.msgId);
  w.u16(h.bodyLength | (h.version === null ? 0 : 0x4000));
  if (h.version !== null) w.u8(h.version);
  w.bytes(h.terminal);
  if (h.shortSerial) w.u8(h.serial);
  else w.u16(h.serial & 0xffff);
}
