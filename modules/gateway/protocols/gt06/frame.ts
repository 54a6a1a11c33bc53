/**
 * GT06 frame layout:
 *   start (0x7878 + 1-byte length | 0x7979 + 2-byte length), protocol number,
 *   content, serial (2), CRC-ITU (2) over length..serial, stop 0x0D0A.
 *
 * Parsing trusts the bytes rather than the length field: real devices send wrong length
 * fields, frames without serial/CRC (old 0x10, legacy WIFI 0x17/0x69) and occasionally a
 * missing final 0x0A, and those frames are still worth decoding.
 */

import { crc16X25 } from "./crc.ts";

export const SHORT_START = 0x78;
export const LONG_START = 0x79;
const NO_CONTENT = new Uint8Array(0);

export interface Gt06Frame {
  /** 0x7979 framing (2-byte length field). */
  extended: boolean;
  lengthField: number;
  type: number;
  /** Everything between the protocol number and the stop bits. */
  payload: Uint8Array;
  /** Payload without the trailing serial and CRC. */
  content: Uint8Array;
  serial: number;
  crcOk: boolean;
}

export function parseFrame(bytes: Uint8Array): Gt06Frame | undefined {
  if (bytes.length < 5 || bytes[0] !== bytes[1]) return undefined;
  if (bytes[0] !== SHORT_START && bytes[0] !== LONG_START) return undefined;
  const extended = bytes[0] === LONG_START;
  const headerLength = extended ? 4 : 3;
  const lengthField = extended ? (bytes[2] << 8) | bytes[3] : bytes[2];

  let end = bytes.length;
  if (bytes[end - 2] === 0x0d && bytes[end - 1] === 0x0a) end -= 2;
  else if (bytes[end - 1] === 0x0d) end -= 1;
  if (end <= headerLength) return undefined;

  const type = bytes[headerLength];
  const payload = bytes.subarray(headerLength + 1, end);
  if (payload.length < 4) {
    return {
      extended,
      lengthField,
      type,
      payload,
      content: payload.subarray(0, 0),
      serial: 0,
      crcOk: false,
    };
  }
  const trailer = end - 4;
  const serial = (bytes[trailer] << 8) | bytes[trailer + 1];
  const crc = (bytes[trailer + 2] << 8) | bytes[trailer + 3];
  return {
    extended,
    lengthField,
    type,
    payload,
    content: payload.subarray(0, payload.length - 4),
    serial,
    crcOk: crc16X25(bytes, 2, trailer + 2) === crc,
  };
}

/** Builds a complete frame; the short form is used unless `extended` or the content needs more. */
export function buildFrame(
  type: number,
  serial: number,
  content: Uint8Array = NO_CONTENT,
  extended = false,
): Uint8Array {
  const length = 1 + content.length + 4;
  const long = extended || length > 0xff;
  const header = long ? 4 : 3;
  const out = new Uint8Array(header + length + 2);
  out[0] = out[1] = long ? LONG_START : SHORT_START;
  if (long) {
    out[2] = (length >> 8) & 0xff;
    out[3] = length & 0xff;
  } else {
    out[2] = length;
  }
  out[header] = type;
  out.set(content, header + 1);
  let p = header + 1 + content.length;
  out[p++] = (serial >> 8) & 0xff;
  out[p++] = serial & 0xff;
  const crc = crc16X25(out, 2, p);
  out[p++] = crc >> 8;
  out[p++] = crc & 0xff;
  out[p++] = 0x0d;
  out[p] = 0x0a;
  return out;
}
