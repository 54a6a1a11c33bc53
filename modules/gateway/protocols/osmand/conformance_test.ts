/**
 * Conformance against the captured requests in shared/fixtures/protocols/osmand.json.
 * HTTP is stateless, so every sample decodes on its own.
 */

import assert from "node:assert/strict";
import type { Position } from "../types.ts";
import { decodeOsmAndRequest } from "./decoder.ts";
import type { OsmAndResult } from "./result.ts";

interface Sample {
  request: { method: string; uri: string; headers?: Record<string, string>; body?: string };
  expect: {
    kind: "null" | "notnull" | "position" | "attribute";
    time?: string;
    valid?: boolean;
    latitude?: number;
    longitude?: number;
    key?: string;
    value?: unknown;
  };
  test: string;
  line: number;
}

const FIXTURE_URL = new URL(
  "../../../../../shared/fixtures/protocols/osmand.json",
  import.meta.url,
);
const fixture: { samples: Sample[] } = JSON.parse(await Deno.readTextFile(FIXTURE_URL));

/** Samples deliberately not matched, keyed `test:line`, with the reason. */
const UNSUPPORTED: Record<string, string> = {};

const NOW = new Date("2026-03-01T12:00:00Z");

function check(expect: Sample["expect"], result: OsmAndResult): string | undefined {
  const positions = "error" in result ? [] : result.positions;
  switch (expect.kind) {
    case "null":
      return positions.length === 0 ? undefined : "expected no position";
    case "notnull":
      return "error" in result ? `expected a result, got ${result.error}` : undefined;
    case "position":
      return positions[0] ? checkPosition(expect, positions[0]) : "expected a position";
    case "attribute": {
      const position = positions[0];
      if (!position) return "expected a position";
      const key = expect.key ?? "";
      const actual = key === "speed" || key === "course" || key === "altitude"
        ? position[key]
        : position.attributes[key];
      return actual === expect.value ? undefined : `${key}: ${actual} != ${expect.value}`;
    }
  }
}

function checkPosition(expect: Sample["expect"], position: Position): string | undefined {
  if (expect.time !== undefined) {
    const wanted = new Date(expect.time.replace(" ", "T") + "Z").getTime();
    if (position.time.getTime() !== wanted) return `time ${position.time.toISOString()}`;
  } else if (!(position.time.getTime() > Date.UTC(2000, 0, 1))) {
    return "implausible time";
  }
  if (expect.valid !== undefined && position.valid !== expect.valid) return "valid differs";
  for (const key of ["latitude", "longitude"] as const) {
    const wanted = expect[key];
    if (wanted !== undefined && !(Math.abs(position[key] - wanted) <= 1e-5)) {
      return `${key} ${position[key]} != ${wanted}`;
    }
  }
  if (Math.abs(position.latitude) > 90 || Math.abs(position.longitude) > 180) {
    return "coordinates out of range";
  }
  return undefined;
}

Deno.test("osmand conformance: fixture requests decode as expected", () => {
  const failures: string[] = [];
  const unexpectedPasses: string[] = [];
  for (const sample of fixture.samples) {
    const key = `${sample.test}:${sample.line}`;
    const { method, uri, headers, body } = sample.request;
    const failure = check(
      sample.expect,
      decodeOsmAndRequest({ method, url: uri, headers, body }, NOW),
    );
    if (key in UNSUPPORTED) {
      if (!failure) unexpectedPasses.push(key);
    } else if (failure) {
      failures.push(`${key} ${uri}: ${failure}`);
    }
  }
  assert.deepEqual(failures, []);
  assert.deepEqual(unexpectedPasses, [], "now passing: remove from UNSUPPORTED");
});

Deno.test("osmand conformance: unsupported samples stay under 10%", () => {
  const count = Object.keys(UNSUPPORTED).length;
  assert.ok(count < fixture.samples.length * 0.1, `${count}/${fixture.samples.length}`);
});
