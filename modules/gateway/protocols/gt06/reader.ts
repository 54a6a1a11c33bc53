/** Bounds-checked big-endian reader: running past the end throws TruncatedError, never garbage. */

export class TruncatedError extends Error {
  constructor() {
    super("GT06 message truncated");
  }
}

export class ByteReader {
  constructor(readonly bytes: Uint8Array, public pos = 0) {}

  get remaining(): number {
    return this.bytes.length - this.pos;
  }

  private take(n: number): number {
    if (n < 0 || this.pos + n > this.bytes.length) throw new TruncatedError();
    const at = this.pos;
    this.pos += n;
    return at;
  }

  u8(): number {
    return this.bytes[this.take(1)];
  }

  u16(): number {
    const at = this.take(2);
    return (this.bytes[at] << 8) | this.bytes[at + 1];
  }

  i16(): number {
    const value = this.u16();
    return value & 0x8000 ? value - 0x10000 : value;
  }

  u24(): number {
    const at = this.take(3);
    return (this.bytes[at] << 16) | (this.bytes[at + 1] << 8) | this.bytes[at + 2];
  }

  u32(): number {
    const at = this.take(4);
    return this.bytes[at] * 0x1000000 +
      ((this.bytes[at + 1] << 16) | (this.bytes[at + 2] << 8) | this.bytes[at + 3]);
  }

  /** Unsigned integer of `size` bytes (1..7 exact; 8-byte 4G cell ids stay exact below 2^53). */
  uint(size: number): number {
    const at = this.take(size);
    let value = 0;
    for (let i = 0; i < size; i++) value = value * 256 + this.bytes[at + i];
    return value;
  }

  bytesOf(n: number): Uint8Array {
    const at = this.take(n);
    return this.bytes.subarray(at, at + n);
  }

  rest(): Uint8Array {
    return this.bytesOf(this.remaining);
  }

  skip(n: number): void {
    this.take(n);
  }

  hex(n: number): string {
    return toHex(this.bytesOf(n));
  }

  ascii(n: number): string {
    return latin1(this.bytesOf(n));
  }
}

export function toHex(bytes: Uint8Array): string {
  let out = "";
  for (const b of bytes) out += b.toString(16).padStart(2, "0");
  return out;
}

export function latin1(bytes: Uint8Array): string {
  let out = "";
  for (const b of bytes) out += String.fromCharCode(b);
  return out;
}

export function fromHex(hex: string): Uint8Array {
  const clean = hex.replace(/\s+/g, "");
  const out = new Uint8Array(clean.length >> 1);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(clean.substr(i * 2, 2), 16);
  return out;
}

/** Printable ASCII, allowing CR/LF/TAB (serial passthrough data often ends with CRLF). */
export function isPrintable(bytes: Uint8Array): boolean {
  return bytes.every((b) => (b >= 0x20 && b < 0x7f) || b === 0x0d || b === 0x0a || b === 0x09);
}
