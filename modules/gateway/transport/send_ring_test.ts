import assert from "node:assert/strict";
import { createSendRing, SendRecord, SendRingReader, SendRingWriter } from "./send_ring.ts";

Deno.test("send ring: records come out in order, across many wrap-arounds", () => {
  const buffer = createSendRing(1000);
  const writer = new SendRingWriter(buffer);
  const reader = new SendRingReader(buffer);
  const expected: [number, number[]][] = [];
  let written = 0, read = 0;
  for (let round = 0; round < 5000; round++) {
    // Write until full, then read some: every head/tail position and wrap case comes up.
    for (;;) {
      const length = (round * 7 + written) % 41;
      const bytes = Array.from({ length }, (_, k) => (written + k) & 0xff);
      if (!writer.put(SendRecord.Send, written, new Uint8Array(bytes))) break;
      expected.push([written, bytes]);
      written++;
    }
    const take = 1 + (round % 5);
    for (let k = 0; k < take; k++) {
      const r = reader.take();
      if (!r) break;
      const [fd, bytes] = expected[read++];
      assert.equal(r.kind, SendRecord.Send);
      assert.equal(r.fd, fd);
      assert.deepEqual([...r.bytes], bytes);
      reader.release();
    }
  }
  while (reader.take()) {
    reader.release();
    read++;
  }
  assert.equal(read, written);
  assert.ok(written > 10_000);
});

Deno.test("send ring: a full ring refuses without writing; a record never fills it", () => {
  const buffer = createSendRing(64);
  const writer = new SendRingWriter(buffer);
  const reader = new SendRingReader(buffer);
  assert.ok(writer.put(SendRecord.Send, 1, new Uint8Array(20))); // 32 bytes
  assert.ok(!writer.put(SendRecord.Send, 2, new Uint8Array(20))); // would fill all 64
  assert.ok(writer.put(SendRecord.Close, 3)); // 12 bytes fit
  assert.equal(reader.take()?.fd, 1);
  reader.release();
  assert.equal(reader.take()?.kind, SendRecord.Close);
  reader.release();
  assert.equal(reader.take(), null);
});

Deno.test("send ring: a sleeping reader wakes when a record arrives from another thread", async () => {
  const buffer = createSendRing(256);
  const reader = new SendRingReader(buffer);
  const code = `
    import { SendRingWriter } from ${
    JSON.stringify(new URL("./send_ring.ts", import.meta.url).href)
  };
    self.onmessage = (e) => {
      setTimeout(() => new SendRingWriter(e.data).put(1, 42, new Uint8Array([9])), 100);
    };`;
  const worker = new Worker(URL.createObjectURL(new Blob([code], { type: "text/javascript" })), {
    type: "module",
  });
  worker.postMessage(buffer);
  // The main thread blocks here (as the send thread does) until the worker's put wakes it.
  await new Promise((r) => setTimeout(r, 20));
  const started = performance.now();
  reader.wait(5000);
  const waited = performance.now() - started;
  worker.terminate();
  const r = reader.take();
  assert.equal(r?.fd, 42);
  assert.ok(waited < 4000, `woke after ${waited} ms`);
});
