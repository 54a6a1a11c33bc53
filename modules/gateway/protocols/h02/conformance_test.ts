/**
 * Conformance against the captured H02 frames in shared/fixtures/protocols/h02.json.
 * Each fixture `test` gets a fresh session (and splitter), samples run in file order.
 */

import assert from "node:assert/strict";
import { type DeviceMessage, newSession, type ProtocolSession } from "../types.ts";
import { decodeH02 } from "./decoder.ts";
import { checkExpectation, type FixtureExpect } from "./fixture_expect.ts";
import { H02Splitter } from "./splitter.ts";

interface Sample {
  text?: string;
  hex: string;
  expect: FixtureExpect;
  test: string;
  line: number;
}

interface FrameSample {
  hex: string;
  expect: { kind: "frame"; frame: string };
  test: string;
  line: number;
}

const FIXTURE_URL = new URL("../../../../../shared/fixtures/protocols/h02.json", import.meta.url);
const fixture: { samples: Sample[]; frameSamples: FrameSample[] } = JSON.parse(
  await Deno.readTextFile(FIXTURE_URL),
);

/** Samples this decoder deliberately does not match, keyed `test:line`, with the reason. */
const UNSUPPORTED: Record<string, string> = {};

/** Fixed clock so frames without a date decode the same way on every run. */
const NOW = new Date("2026-03-01T12:00:00Z");

function fromHex(hex: string): Uint8Array {
  return Uint8Array.from(hex.match(/../g) ?? [], (pair) => parseInt(pair, 16));
}

function decodeAll(): Map<Sample, DeviceMessage[]> {
  const sessions = new Map<string, ProtocolSession>();
  const results = new Map<Sample, DeviceMessage[]>();
  for (const sample of fixture.samples) {
    if (!sessions.has(sample.test)) sessions.set(sample.test, newSession());
    const { messages } = decodeH02(fromHex(sample.hex), sessions.get(sample.test)!, NOW);
    results.set(sample, messages);
  }
  return results;
}

Deno.test("h02 conformance: fixture samples decode as expected", () => {
  const results = decodeAll();
  const failures: string[] = [];
  const unexpectedPasses: string[] = [];
  for (const [sample, messages] of results) {
    const key = `${sample.test}:${sample.line}`;
    const failure = checkExpectation(sample.expect, messages);
    if (key in UNSUPPORTED) {
      if (!failure) unexpectedPasses.push(key);
    } else if (failure) {
      failures.push(`${key} ${sample.text ?? sample.hex}: ${failure}`);
    }
  }
  assert.deepEqual(failures, []);
  assert.deepEqual(unexpectedPasses, [], "now passing: remove from UNSUPPORTED");
});

Deno.test("h02 conformance: unsupported samples stay under 10%", () => {
  const count = Object.keys(UNSUPPORTED).length;
  assert.ok(count < fixture.samples.length * 0.1, `${count}/${fixture.samples.length}`);
});

Deno.test("h02 conformance: frame samples split as expected", () => {
  const splitters = new Map<string, H02Splitter>();
  for (const sample of fixture.frameSamples) {
    if (!splitters.has(sample.test)) splitters.set(sample.test, new H02Splitter());
    const frames = splitters.get(sample.test)!.push(fromHex(sample.hex));
    assert.ok(frames.length > 0, `${sample.test}:${sample.line} produced no frame`);
    assert.deepEqual(frames[0], fromHex(sample.expect.frame), `${sample.test}:${sample.line}`);
  }
});

Deno.test("h02 conformance: frame samples survive byte-by-byte delivery", () => {
  for (const sample of fixture.frameSamples) {
    const expected = fromHex(sample.expect.frame);
    // A lone long binary frame cannot be told from a 32-byte one at byte 32 until the
    // splitter has learned the connection's length (covered in splitter_test.ts).
    if (expected[0] !== 0x2a && expected.length !== 32) continue;
    const splitter = new H02Splitter();
    const frames = [...fromHex(sample.hex)].flatMap((byte) => splitter.push(Uint8Array.of(byte)));
    assert.deepEqual(frames[0], expected, `${sample.test}:${sample.line}`);
  }
});
