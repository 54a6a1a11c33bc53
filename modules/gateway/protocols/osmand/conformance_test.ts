/**
 * Conformance against the captured requests in shared/fixtures/protocols/osmand.json.
 * HTTP is stateless, so every sample decodes on its own.
 */

import assert from "node:assert/strict";
import {
  assertConformance,
  differs,
  type Expect,
  loadFixture,
  mismatch,
  type Reading,
} from "../test_support.ts";
import { decodeOsmAndRequest } from "./decoder.ts";
import type { OsmAndResult } from "./result.ts";

interface Sample {
  request: { method: string; uri: string; headers?: Record<string, string>; body?: string };
  expect: Expect;
  test: string;
  line: number;
}

const fixture = loadFixture<Sample>("osmand.json");

/** Samples deliberately not matched, keyed `test:line`, with the reason. */
const UNSUPPORTED = new Map<string, string>();

const NOW = new Date("2026-03-01T12:00:00Z");

const positionsOf = (result: OsmAndResult) => "error" in result ? [] : result.positions;

/** What the suite's assertions read from a decoded request: its first position. */
const reading: Reading<OsmAndResult> = {
  nothing: (result) => positionsOf(result).length === 0 ? undefined : "expected no position",
  something: (result) => "error" in result ? `expected a result, got ${result.error}` : undefined,
  position: (result) => positionsOf(result)[0],
  positions: positionsOf,
  attribute(result, key, expected) {
    const position = positionsOf(result)[0];
    if (!position) return "expected a position";
    const actual = key === "speed" || key === "course" || key === "altitude"
      ? position[key]
      : position.attributes[key];
    return actual === expected ? undefined : differs(key, actual, expected);
  },
};

Deno.test("osmand conformance: fixture requests decode as expected", () => {
  const results = fixture.samples.map((sample) => {
    const { method, uri, headers, body } = sample.request;
    return { sample, decoded: decodeOsmAndRequest({ method, url: uri, headers, body }, NOW) };
  });
  assertConformance(
    results,
    (decoded, sample) => mismatch(reading, decoded, sample.expect),
    UNSUPPORTED,
    (s) => `${s.test}:${s.line}`,
    (s) => s.request.uri,
  );
});

Deno.test("osmand conformance: unsupported samples stay under 10%", () => {
  const count = UNSUPPORTED.size;
  assert.ok(count < fixture.samples.length * 0.1, `${count}/${fixture.samples.length}`);
});
