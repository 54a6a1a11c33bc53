/**
 * Conformance against real device captures (/work/shared/fixtures/protocols/gt06.json, taken
 * from Traccar's test suite). Traccar attribute names are mapped onto our Position fields.
 */

import assert from "node:assert/strict";
import type { AttributeValue, DecodeResult, DeviceMessage, Position } from "../types.ts";
import {
  assertConformance,
  assertUnsupportedList,
  closeTo,
  differs,
  loadFixture,
  mismatch,
  type Reading,
  replay,
  type Sample,
  splitByteByByte,
  splitWhole,
} from "../test_support.ts";
import { gt06 } from "./index.ts";

const fixture = loadFixture("gt06.json");

/** Samples we knowingly do not decode as the reference does, keyed by Java test line. */
const UNSUPPORTED = new Map(Object.entries({
  20:
    "0xF1 TLV packet: the tag meanings are undocumented (reading tag 0x0005 as 'power' would be a guess)",
  32: "0x70 module 0x7F (BLE tag list): undocumented layout, tag temperature offset unknown",
  43: "0xA3 7-byte GL21L status: undocumented layout",
  46: "0xA3 19-byte pedometer packet: undocumented layout, step counter offset unknown",
  85:
    "0x32 SL4X altitude: the reference value (-31703) is read from the CRC bytes by an over-read; we decode the real altitude (687 m)",
}));
const lineOf = (s: Sample) => String(s.line);

/** Traccar alarm names that differ from ours. */
const TRACCAR_ALARM_NAMES: Record<string, string> = {
  tamper: "tampering",
  harshAcceleration: "hardAcceleration",
  harshBraking: "hardBraking",
  harshCornering: "hardCornering",
  fall: "fallDown",
};

/** A position, status or command reply flattened for attribute lookups. */
interface Record_ {
  position?: Position;
  acc?: boolean;
  battery?: number;
  signal?: number;
  alarm?: string;
  mileage?: number;
  attributes: Record<string, AttributeValue>;
  text?: string;
}

function records(messages: DeviceMessage[]): Record_[] {
  const out: Record_[] = [];
  for (const m of messages) {
    if (m.type === "position") out.push({ ...m.position, position: m.position });
    if (m.type === "positions") { for (const p of m.positions) out.push({ ...p, position: p }); }
    if (m.type === "status") out.push(m);
    if (m.type === "commandReply") out.push({ attributes: {}, text: m.text });
  }
  return out;
}

/** Traccar attribute key → value in our model (undefined = not present). */
function lookup(r: Record_, key: string): unknown {
  switch (key) {
    case "ignition":
      return r.acc;
    case "batteryLevel":
      return r.battery;
    case "battery":
      return r.attributes.batteryVoltage;
    case "odometer":
      return r.mileage === undefined ? undefined : r.mileage * 1000;
    case "hours":
      return typeof r.attributes.hours === "number" ? r.attributes.hours * 3_600_000 : undefined;
    case "alarm":
      return r.alarm === undefined ? undefined : TRACCAR_ALARM_NAMES[r.alarm] ?? r.alarm;
    case "result":
      return r.text ?? r.attributes.serialData;
    case "speed":
    case "course":
    case "altitude":
      return r.position?.[key];
    default:
      return r.attributes[key];
  }
}

/** What the suite's assertions read from GT06 output: every decoded record counts. */
const reading: Reading<DeviceMessage[]> = {
  nothing(messages) {
    const data = messages.filter((m) => m.type !== "identify" && m.type !== "commandReply");
    return data.length === 0 ? undefined : `expected nothing, got ${data.map((m) => m.type)}`;
  },
  something: (messages) => records(messages).length > 0 ? undefined : "expected a decoded message",
  position: (messages) => positionsOf(messages)[0],
  positions: positionsOf,
  attributes: (messages) =>
    records(messages).some((r) => Object.keys(r.attributes).length > 0 || r.text),
  attribute(messages, key, expected) {
    const values = records(messages).map((r) => lookup(r, key)).filter((v) => v !== undefined);
    if (expected === null) return values.length === 0 ? undefined : `${key} present`;
    if (values.length === 0) return `${key} missing`;
    const same = typeof expected === "number"
      ? closeTo(values[0], expected, 1e-6)
      : values[0] === expected;
    return same ? undefined : differs(key, values[0], expected);
  },
};

function positionsOf(messages: DeviceMessage[]): Position[] {
  return records(messages).filter((r) => r.position).map((r) => r.position!);
}

/** Decodes every sample in order, one session per test method, like the reference suite. */
function runSamples() {
  return replay(fixture.samples, (bytes, session): DecodeResult => {
    const result = gt06.decode(bytes, session);
    assert.ok(Array.isArray(result.messages) && Array.isArray(result.replies));
    return result;
  }, { models: true });
}

const check = (result: DecodeResult, sample: Sample) =>
  mismatch(reading, result.messages, sample.expect);

Deno.test("every supported fixture sample decodes as expected", () => {
  assertConformance(runSamples(), check, UNSUPPORTED, lineOf);
});

Deno.test("the unsupported list is short, real and still needed", () => {
  const results = runSamples();
  assertUnsupportedList(fixture.samples, UNSUPPORTED, lineOf);
  for (const { sample, decoded } of results.filter((r) => UNSUPPORTED.has(lineOf(r.sample)))) {
    assert.notEqual(
      check(decoded, sample),
      undefined,
      `line ${sample.line} now passes: remove it from UNSUPPORTED`,
    );
  }
});

Deno.test("frame samples come out of the splitter whole, in one chunk or byte by byte", () => {
  const samples = fixture.frameSamples ?? [];
  assert.ok(samples.length > 0);
  for (const sample of samples) {
    assert.deepEqual(splitWhole(gt06.createSplitter(), sample.hex), [sample.expect.frame]);
    assert.deepEqual(splitByteByByte(gt06.createSplitter(), sample.hex), [sample.expect.frame]);
  }
});
