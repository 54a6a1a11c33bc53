/**
 * Conformance against the captured H02 frames in shared/fixtures/protocols/h02.json.
 * Each fixture `test` gets a fresh session (and splitter), samples run in file order.
 */

import assert from "node:assert/strict";
import type { DeviceMessage } from "../types.ts";
import {
  assertConformance,
  fromHex,
  loadFixture,
  mismatch,
  replay,
  type Sample,
  splitByteByByte,
} from "../test_support.ts";
import { decodeH02 } from "./decoder.ts";
import { h02Reading } from "./fixture_expect.ts";
import { H02Splitter } from "./splitter.ts";

const fixture = loadFixture("h02.json");
const frameSamples = fixture.frameSamples ?? [];

/** Samples this decoder deliberately does not match, keyed `test:line`, with the reason. */
const UNSUPPORTED = new Map<string, string>();
const keyOf = (s: Sample) => `${s.test}:${s.line}`;

/** Fixed clock so frames without a date decode the same way on every run. */
const NOW = new Date("2026-03-01T12:00:00Z");

Deno.test("h02 conformance: fixture samples decode as expected", () => {
  const results = replay(fixture.samples, (bytes, session) => decodeH02(bytes, session, NOW));
  assertConformance(
    results,
    ({ messages }: { messages: DeviceMessage[] }, sample) =>
      mismatch(h02Reading, messages, sample.expect),
    UNSUPPORTED,
    keyOf,
  );
});

Deno.test("h02 conformance: unsupported samples stay under 10%", () => {
  const count = UNSUPPORTED.size;
  assert.ok(count < fixture.samples.length * 0.1, `${count}/${fixture.samples.length}`);
});

Deno.test("h02 conformance: frame samples split as expected", () => {
  const splitters = new Map<string, H02Splitter>();
  for (const sample of frameSamples) {
    if (!splitters.has(sample.test)) splitters.set(sample.test, new H02Splitter());
    const frames = splitters.get(sample.test)!.push(fromHex(sample.hex));
    assert.ok(frames.length > 0, `${sample.test}:${sample.line} produced no frame`);
    assert.deepEqual(frames[0], fromHex(sample.expect.frame!), `${sample.test}:${sample.line}`);
  }
});

Deno.test("h02 conformance: frame samples survive byte-by-byte delivery", () => {
  for (const sample of frameSamples) {
    const expected = fromHex(sample.expect.frame!);
    // A lone long binary frame cannot be told from a 32-byte one at byte 32 until the
    // splitter has learned the connection's length (covered in splitter_test.ts).
    if (expected[0] !== 0x2a && expected.length !== 32) continue;
    const frames = splitByteByByte(new H02Splitter(), sample.hex);
    assert.deepEqual(frames[0], sample.expect.frame, `${sample.test}:${sample.line}`);
  }
});
