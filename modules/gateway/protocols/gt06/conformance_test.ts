/**
 * Conformance against real device captures (/work/shared/fixtures/protocols/gt06.json, taken
 * from Traccar's test suite). Traccar attribute names are mapped onto our Position fields.
 */

import assert from "node:assert/strict";
import type { AttributeValue, DeviceMessage, Position, ProtocolSession } from "../types.ts";
import { newSession } from "../types.ts";
import { gt06 } from "./index.ts";
import { fromHex, toHex } from "./reader.ts";

const FIXTURE_URL = new URL("../../../../../shared/fixtures/protocols/gt06.json", import.meta.url);

interface Expect {
  kind: "null" | "notnull" | "position" | "positions" | "attributes" | "attribute" | "frame";
  time?: string;
  valid?: boolean;
  latitude?: number;
  longitude?: number;
  key?: string;
  value?: AttributeValue | null;
  frame?: string;
}

interface Sample {
  hex: string;
  expect: Expect;
  test: string;
  line: number;
  modelOverride?: string;
}

interface Fixture {
  samples: Sample[];
  frameSamples?: Sample[];
}

const fixture: Fixture = JSON.parse(Deno.readTextFileSync(FIXTURE_URL));

/** Samples we knowingly do not decode as the reference does, keyed by Java test line. */
const UNSUPPORTED: Record<number, string> = {
  20:
    "0xF1 TLV packet: the tag meanings are undocumented (reading tag 0x0005 as 'power' would be a guess)",
  32: "0x70 module 0x7F (BLE tag list): undocumented layout, tag temperature offset unknown",
  43: "0xA3 7-byte GL21L status: undocumented layout",
  46: "0xA3 19-byte pedometer packet: undocumented layout, step counter offset unknown",
  85:
    "0x32 SL4X altitude: the reference value (-31703) is read from the CRC bytes by an over-read; we decode the real altitude (687 m)",
};

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

function sameValue(actual: unknown, expected: unknown): boolean {
  if (typeof actual === "number" && typeof expected === "number") {
    return Math.abs(actual - expected) <= 1e-6 * Math.max(1, Math.abs(expected));
  }
  return actual === expected;
}

const traccarTime = (text: string) => Date.parse(text.replace(" ", "T") + "Z");

/** Returns why the decoded messages do not meet the expectation, or null when they do. */
function mismatch(messages: DeviceMessage[], expect: Expect): string | null {
  const recs = records(messages);
  const positions = recs.filter((r) => r.position).map((r) => r.position!);
  const data = messages.filter((m) => m.type !== "identify" && m.type !== "commandReply");
  switch (expect.kind) {
    case "null":
      return data.length === 0 ? null : `expected nothing, got ${data.map((m) => m.type)}`;
    case "notnull":
      return recs.length > 0 ? null : "expected a decoded message";
    case "positions":
      return positions.length > 0 ? null : "expected positions";
    case "attributes":
      return recs.some((r) => Object.keys(r.attributes).length > 0 || r.text)
        ? null
        : "expected a record with attributes";
    case "position": {
      const p = positions[0];
      if (!p) return "expected a position";
      if (p.time.getUTCFullYear() < 2000) return `implausible time ${p.time.toISOString()}`;
      if (Math.abs(p.latitude) > 90 || Math.abs(p.longitude) > 180) {
        return "coordinates out of range";
      }
      if (expect.time !== undefined && p.time.getTime() !== traccarTime(expect.time)) {
        return `time ${p.time.toISOString()} != ${expect.time}`;
      }
      if (expect.valid !== undefined && p.valid !== expect.valid) return `valid ${p.valid}`;
      if (expect.latitude !== undefined && Math.abs(p.latitude - expect.latitude) > 1e-5) {
        return `latitude ${p.latitude}`;
      }
      if (expect.longitude !== undefined && Math.abs(p.longitude - expect.longitude) > 1e-5) {
        return `longitude ${p.longitude}`;
      }
      return null;
    }
    case "attribute": {
      const values = recs.map((r) => lookup(r, expect.key!)).filter((v) => v !== undefined);
      if (expect.value === null) return values.length === 0 ? null : `${expect.key} present`;
      if (values.length === 0) return `${expect.key} missing`;
      return sameValue(values[0], expect.value)
        ? null
        : `${expect.key}=${JSON.stringify(values[0])}, expected ${JSON.stringify(expect.value)}`;
    }
    default:
      return `unknown expectation ${expect.kind}`;
  }
}

/** Decodes every sample in order, one session per test method, like the reference suite. */
function runSamples(): { sample: Sample; problem: string | null }[] {
  const sessions = new Map<string, ProtocolSession>();
  return fixture.samples.map((sample) => {
    const session = sessions.get(sample.test) ?? newSession();
    sessions.set(sample.test, session);
    if (sample.modelOverride) session.extra.model = sample.modelOverride;
    else delete session.extra.model;
    const result = gt06.decode(fromHex(sample.hex), session);
    assert.ok(Array.isArray(result.messages) && Array.isArray(result.replies));
    return { sample, problem: mismatch(result.messages, sample.expect) };
  });
}

Deno.test("every supported fixture sample decodes as expected", () => {
  const failures = runSamples()
    .filter(({ sample, problem }) => problem !== null && !(sample.line in UNSUPPORTED))
    .map(({ sample, problem }) => `line ${sample.line} (${sample.hex.slice(0, 12)}…): ${problem}`);
  assert.deepEqual(failures, []);
});

Deno.test("the unsupported list is short, real and still needed", () => {
  const results = runSamples();
  const lines = new Set(results.map((r) => r.sample.line));
  for (const line of Object.keys(UNSUPPORTED).map(Number)) {
    assert.ok(lines.has(line), `UNSUPPORTED lists unknown line ${line}`);
  }
  const listed = results.filter((r) => r.sample.line in UNSUPPORTED);
  assert.ok(listed.length < results.length * 0.1, `${listed.length}/${results.length} unsupported`);
  for (const { sample, problem } of listed) {
    assert.notEqual(problem, null, `line ${sample.line} now passes: remove it from UNSUPPORTED`);
  }
});

Deno.test("frame samples come out of the splitter whole, in one chunk or byte by byte", () => {
  const samples = fixture.frameSamples ?? [];
  assert.ok(samples.length > 0);
  for (const sample of samples) {
    const whole = gt06.createSplitter().push(fromHex(sample.hex)).map(toHex);
    assert.deepEqual(whole, [sample.expect.frame]);

    const splitter = gt06.createSplitter();
    const frames = Array.from(fromHex(sample.hex)).flatMap((b) => splitter.push(Uint8Array.of(b)));
    assert.deepEqual(frames.map(toHex), [sample.expect.frame]);
  }
});
