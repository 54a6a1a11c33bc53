import assert from "node:assert/strict";
import { crc32, gunzipSync } from "node:zlib";
import { crc32Combine, gzipParts } from "./gzip_parts.ts";

const enc = new TextEncoder();
const join = (parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

Deno.test("crc32Combine equals the CRC of the concatenation", () => {
  const a = enc.encode("The quick brown fox "),
    b = enc.encode("jumps over the lazy dog".repeat(99));
  assert.equal(crc32Combine(crc32(a), crc32(b), b.length), crc32(join([a, b])));
  assert.equal(crc32Combine(crc32(a), crc32(new Uint8Array(0)), 0), crc32(a));
});

Deno.test("gzipParts: separately compressed parts make one gzip member any reader opens", async () => {
  const block = enc.encode(
    JSON.stringify(Array.from({ length: 5000 }, (_, i) => ({ i, lat: 22.5 + i * 1e-6 }))),
  );
  const parts = [
    enc.encode('{"code":0,"result":['),
    block,
    enc.encode(","),
    block,
    enc.encode("]}"),
  ];
  const whole = join(parts);
  const zipped = join(gzipParts(parts));
  assert.ok(zipped.length < whole.length / 5, `${zipped.length} of ${whole.length}`);
  assert.deepEqual(new Uint8Array(gunzipSync(zipped)), whole);
  // The web platform's decoder (what fetch uses) reads it too.
  const viaStream = new Response(
    new Blob([zipped]).stream().pipeThrough(new DecompressionStream("gzip")),
  );
  assert.deepEqual(new Uint8Array(await viaStream.arrayBuffer()), whole);
  // A cached part compresses to the same bytes the second time (taken from the cache).
  assert.deepEqual(join(gzipParts(parts)), zipped);
});
