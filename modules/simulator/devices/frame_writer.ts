/** Big-endian field writer for the simulated devices' binary frames. */
export class FrameWriter {
  private parts: number[] = [];
  u8(v: number): this {
    this.parts.push(v & 0xff);
    return this;
  }
  u16(v: number): this {
    return this.u8(v >> 8).u8(v);
  }
  u24(v: number): this {
    return this.u8(v >> 16).u8(v >> 8).u8(v);
  }
  u32(v: number): this {
    return this.u8(v >>> 24).u8(v >>> 16).u8(v >>> 8).u8(v);
  }
  bytes(b: Uint8Array | number[]): this {
    for (const x of b) this.parts.push(x);
    return this;
  }
  /** Fixed-size field, zero-padded (or cut). */
  fixed(b: Uint8Array, size: number): this {
    for (let i = 0; i < size; i++) this.parts.push(i < b.length ? b[i] : 0);
    return this;
  }
  done(): Uint8Array {
    return Uint8Array.from(this.parts);
  }
}
