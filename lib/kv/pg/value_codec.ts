/**
 * Values as bytea: V8's structured serialization (what Deno KV itself stores), except
 * Deno.KvU64, which V8 cannot serialize and the sum/min/max mutations need as a number.
 */
import v8 from "node:v8";
import { Buffer } from "node:buffer";

const V8 = 0x00;
const U64 = 0x01;

export function encodeValue(value: unknown): Buffer {
  if (value instanceof Deno.KvU64) {
    const out = Buffer.alloc(9);
    out[0] = U64;
    out.writeBigUInt64BE(value.value, 1);
    return out;
  }
  const body = v8.serialize(value);
  const out = Buffer.allocUnsafe(body.length + 1);
  out[0] = V8;
  body.copy(out, 1);
  return out;
}

export function decodeValue(bytes: Uint8Array): unknown {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf[0] === U64) return new Deno.KvU64(buf.readBigUInt64BE(1));
  const value = v8.deserialize(buf.subarray(1));
  // Node's deserializer hands Buffers back for Uint8Arrays; Deno KV gives plain Uint8Arrays.
  return value instanceof Buffer ? new Uint8Array(value) : value;
}
