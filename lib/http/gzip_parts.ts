/**
 * A gzip body made of parts that are each compressed once: every part is deflated on its own
 * and ended with a sync flush (byte-aligned, not final), so the compressed parts simply
 * concatenate into one deflate stream; a final empty block, the gzip header and the trailer
 * (CRC-32 combined from the parts' CRCs, and the length) make it one ordinary gzip member.
 * Parts that recur (a position block's cached JSON) are compressed the first time only, so a
 * 9 MB answer made of cached parts costs a few concatenations, and moves ~30x fewer bytes.
 */
import { constants, crc32, deflateRawSync } from "node:zlib";

interface Packed {
  z: Uint8Array;
  crc: number;
}

/** Compressed parts by identity: the callers' cached fragments stay the same objects. */
const packed = new WeakMap<Uint8Array, Packed>();
const HEADER = new Uint8Array([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
/** A final, empty fixed-Huffman block. */
const FINAL = new Uint8Array([3, 0]);

function pack(part: Uint8Array): Packed {
  let p = packed.get(part);
  if (!p) {
    p = {
      z: deflateRawSync(part, { level: 6, finishFlush: constants.Z_SYNC_FLUSH }),
      crc: crc32(part),
    };
    packed.set(part, p);
  }
  return p;
}

/** The gzip member of the parts' concatenation, as parts to send in order. */
export function gzipParts(parts: readonly Uint8Array[]): Uint8Array[] {
  const out: Uint8Array[] = [HEADER];
  let crc = 0, size = 0;
  for (const part of parts) {
    if (!part.length) continue;
    const p = pack(part);
    out.push(p.z);
    crc = size ? crc32Combine(crc, p.crc, part.length) : p.crc;
    size += part.length;
  }
  const trailer = new Uint8Array(8);
  const view = new DataView(trailer.buffer);
  view.setUint32(0, crc >>> 0, true);
  view.setUint32(4, size >>> 0, true);
  out.push(FINAL, trailer);
  return out;
}

// ---- CRC-32 of a concatenation from the CRCs of its halves (zlib's crc32_combine) ----------

function gf2Times(mat: Uint32Array, vec: number): number {
  let sum = 0;
  for (let i = 0; vec; i++, vec >>>= 1) if (vec & 1) sum ^= mat[i];
  return sum >>> 0;
}

function gf2Square(square: Uint32Array, mat: Uint32Array): void {
  for (let n = 0; n < 32; n++) square[n] = gf2Times(mat, mat[n]);
}

/** CRC-32 of A followed by B, from crc(A), crc(B) and B's length. */
export function crc32Combine(crcA: number, crcB: number, lenB: number): number {
  if (lenB <= 0) return crcA >>> 0;
  const even = new Uint32Array(32), odd = new Uint32Array(32);
  odd[0] = 0xedb88320; // the CRC-32 polynomial: the operator for one zero bit
  for (let n = 1, row = 1; n < 32; n++, row <<= 1) odd[n] = row;
  gf2Square(even, odd); // two zero bits
  gf2Square(odd, even); // four zero bits
  let crc = crcA >>> 0;
  let len = lenB;
  do {
    gf2Square(even, odd);
    if (len & 1) crc = gf2Times(even, crc);
    len = Math.floor(len / 2);
    if (!len) break;
    gf2Square(odd, even);
    if (len & 1) crc = gf2Times(odd, crc);
    len = Math.floor(len / 2);
  } while (len);
  return (crc ^ crcB) >>> 0;
}
