/** Bounds-checked big-endian reading over a byte slice, plus small hex/text helpers. */

/** Thrown when a read runs past the end of its slice; decoders catch it and drop the message. */
export class Truncated extends Error {
  constructor() {
    super("truncated JT/T 808 data");
  }
}

export class ByteReader {
  #bytes: Uint8Array;
  #pos: number;
  #end: number;

  constructor(bytes: Uint8Array, start = 0, end = bytes.length) {
    this.#bytes = bytes;
    this.#pos = start;
    this.#end = Math.min(end, bytes.length);
  }

  get remaining(): number {
    return this.#end - this.#pos;
  }

  #take(n: number): number {
    if (n < 0 || this.#pos + n > this.#end) throw new Truncated();
    const at = this.#pos;
    this.#pos += n;
    return at;
  }

  u8(): number {
    return this.#bytes[this.#take(1)];
  }

  i8(): number {
    const v = this.u8();
    return v >= 0x80 ? v - 0x100 : v;
  }

  /** Next byte without consuming it. */
  peek(): number {
    if (this.#pos >= this.#end) throw new Truncated();
    return this.#bytes[this.#pos];
  }

  u16(): number {
    const at = this.#take(2);
    return (this.#bytes[at] << 8) | this.#bytes[at + 1];
  }

  i16(): number {
    const v = this.u16();
    return v >= 0x8000 ? v - 0x10000 : v;
  }

  u24(): number {
    const at = this.#take(3);
    return (this.#bytes[at] << 16) | (this.#bytes[at + 1] << 8) | this.#bytes[at + 2];
  }

  u32(): number {
    return this.u16() * 0x10000 + this.u16();
  }

  i32(): number {
    const v = this.u32();
    return v >= 0x80000000 ? v - 0x100000000 : v;
  }

  bytes(n: number): Uint8Array {
    const at = this.#take(n);
    return this.#bytes.subarray(at, at + n);
  }

  skip(n: number): void {
    this.#take(n);
  }

  /** A reader over the next n bytes; this reader moves past them. */
  sub(n: number): ByteReader {
    const at = this.#take(n);
    return new ByteReader(this.#bytes, at, at + n);
  }

  rest(): Uint8Array {
    return this.bytes(this.remaining);
  }

  hex(n: number): string {
    return toHex(this.bytes(n));
  }

  /** One char per byte: keeps vendor bytes above 0x7F visible instead of replacing them. */
  latin1(n: number): string {
    return latin1(this.bytes(n));
  }
}

export function toHex(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += b.toString(16).padStart(2, "0");
  return s;
}

export function fromHex(hex: string): Uint8Array {
  const clean = hex.replace(/\s+/g, "");
  if (clean.length % 2 !== 0 || /[^0-9a-fA-F]/.test(clean)) {
    throw new Error(`invalid hex: ${hex.slice(0, 32)}`);
  }
  const out = new Uint8Array(clean.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(clean.slice(i * 2, i * 2 + 2), 16);
  return out;
}

export function latin1(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return s;
}

const gbk = new TextDecoder("gbk");

/** JT/T 808 STRING fields are GBK; ASCII is a subset. */
export function decodeGbk(bytes: Uint8Array): string {
  return gbk.decode(bytes);
}

/** Like Java's String.trim(): strips NUL padding and whitespace at both ends. */
export function trimControl(s: string): string {
  // deno-lint-ignore no-control-regex
  return s.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, "");
}

/** Growable byte buffer for building frames. */
export class ByteWriter {
  #buf = new Uint8Array(64);
  #len = 0;

  #ensure(n: number): void {
    if (this.#len + n <= this.#buf.length) return;
    const next = new Uint8Array(Math.max(this.#buf.length * 2, this.#len + n));
    next.set(this.#buf.subarray(0, this.#len));
    this.#buf = next;
  }

  u8(v: number): this {
    this.#ensure(1);
    this.#buf[this.#len++] = v & 0xff;
    return this;
  }

  u16(v: number): this {
    return this.u8(v >> 8).u8(v);
  }

  u32(v: number): this {
    return this.u16(Math.floor(v / 0x10000) & 0xffff).u16(v & 0xffff);
  }

  bytes(b: Uint8Array): this {
    this.#ensure(b.length);
    this.#buf.set(b, this.#len);
    this.#len += b.length;
    return this;
  }

  get length(): number {
    return this.#len;
  }

  finish(): Uint8Array {
    return this.#buf.slice(0, this.#len);
  }
}
