/**
 * Order-preserving binary encoding of Deno KV keys (the tuple layout Deno KV itself uses), so
 * PostgreSQL's bytea ordering equals Deno KV's key ordering: by type first
 * (Uint8Array < string < bigint < number < false < true), then by value.
 */
const BYTES = 0x01;
const STRING = 0x02;
const INT_ZERO = 0x14;
const INT_NEG_BIG = 0x0b;
const INT_POS_BIG = 0x1d;
const DOUBLE = 0x21;
const FALSE = 0x26;
const TRUE = 0x27;

const utf8 = new TextEncoder();
const utf8Decoder = new TextDecoder();

/** Encodes a whole key (or a list selector's prefix/start/end). */
export function encodeKey(key: Deno.KvKey): Uint8Array {
  const out: number[] = [];
  for (const part of key) encodePart(out, part);
  return Uint8Array.from(out);
}

function encodePart(out: number[], part: Deno.KvKeyPart): void {
  if (part instanceof Uint8Array) return escaped(out, BYTES, part);
  switch (typeof part) {
    case "string":
      return escaped(out, STRING, utf8.encode(part));
    case "bigint":
      return encodeBigint(out, part);
    case "number":
      return encodeDouble(out, part);
    case "boolean":
      out.push(part ? TRUE : FALSE);
      return;
  }
  throw new TypeError(`Unsupported key part type: ${typeof part}`);
}

/** Byte strings end with 0x00; a 0x00 inside is written 0x00 0xFF so it sorts before the end. */
function escaped(out: number[], tag: number, bytes: Uint8Array): void {
  out.push(tag);
  for (const b of bytes) {
    out.push(b);
    if (b === 0) out.push(0xff);
  }
  out.push(0);
}

function bigintBytes(n: bigint): number[] {
  const bytes: number[] = [];
  while (n > 0n) {
    bytes.unshift(Number(n & 0xffn));
    n >>= 8n;
  }
  return bytes;
}

function encodeBigint(out: number[], n: bigint): void {
  if (n === 0n) return void out.push(INT_ZERO);
  const negative = n < 0n;
  const magnitude = bigintBytes(negative ? -n : n);
  const len = magnitude.length;
  if (!negative) {
    if (len <= 8) out.push(INT_ZERO + len);
    else out.push(INT_POS_BIG, len);
    out.push(...magnitude);
    return;
  }
  // Negative: one's complement of the magnitude, shorter (larger) numbers sort after longer.
  if (len <= 8) out.push(INT_ZERO - len);
  else out.push(INT_NEG_BIG, len ^ 0xff);
  for (const b of magnitude) out.push(b ^ 0xff);
}

function encodeDouble(out: number[], n: number): void {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Number.isNaN(n) ? NaN : n);
  const bytes = new Uint8Array(view.buffer);
  if (bytes[0] & 0x80) { for (let i = 0; i < 8; i++) bytes[i] ^= 0xff; }
  else bytes[0] ^= 0x80;
  out.push(DOUBLE, ...bytes);
}

/** Decodes what encodeKey wrote. */
export function decodeKey(bytes: Uint8Array): Deno.KvKey {
  const key: Deno.KvKeyPart[] = [];
  let i = 0;
  while (i < bytes.length) {
    const tag = bytes[i++];
    if (tag === BYTES || tag === STRING) {
      const part: number[] = [];
      for (;;) {
        const b = bytes[i++];
        if (b === 0) {
          if (bytes[i] === 0xff) {
            part.push(0);
            i++;
            continue;
          }
          break;
        }
        part.push(b);
      }
      const raw = Uint8Array.from(part);
      key.push(tag === BYTES ? raw : utf8Decoder.decode(raw));
    } else if (tag >= INT_NEG_BIG && tag <= INT_POS_BIG) {
      [key[key.length], i] = decodeBigint(bytes, tag, i);
    } else if (tag === DOUBLE) {
      const raw = new Uint8Array(bytes.subarray(i, i + 8)); // a copy (pg hands Buffers)
      if (raw[0] & 0x80) raw[0] ^= 0x80;
      else for (let j = 0; j < 8; j++) raw[j] ^= 0xff;
      key.push(new DataView(raw.buffer).getFloat64(0));
      i += 8;
    } else if (tag === FALSE || tag === TRUE) {
      key.push(tag === TRUE);
    } else {
      throw new Error(`Corrupt key encoding (tag 0x${tag.toString(16)})`);
    }
  }
  return key;
}

function decodeBigint(bytes: Uint8Array, tag: number, i: number): [bigint, number] {
  if (tag === INT_ZERO) return [0n, i];
  const negative = tag < INT_ZERO;
  let len: number;
  if (tag === INT_POS_BIG) len = bytes[i++];
  else if (tag === INT_NEG_BIG) len = bytes[i++] ^ 0xff;
  else len = negative ? INT_ZERO - tag : tag - INT_ZERO;
  let n = 0n;
  for (let j = 0; j < len; j++) {
    n = (n << 8n) | BigInt(negative ? bytes[i + j] ^ 0xff : bytes[i + j]);
  }
  return [negative ? -n : n, i + len];
}

/** The key that sorts after every key starting with `prefix` (an exclusive upper bound). */
export function prefixEnd(prefix: Uint8Array): Uint8Array {
  const end = new Uint8Array(prefix.length + 1);
  end.set(prefix);
  end[prefix.length] = 0xff;
  return end;
}

/** Byte-wise comparison, as PostgreSQL orders bytea. */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}
