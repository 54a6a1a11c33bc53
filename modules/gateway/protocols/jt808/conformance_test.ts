/**
 * Replays the shared JT/T 808 captures (Traccar's Jt808ProtocolDecoderTest vectors) through our
 * splitter and decoder and checks what that suite asserts, mapped to our contract:
 *
 * - null      → no position(s) message (status/commandReply/identify are allowed)
 * - notnull   → at least one message besides "identify"
 * - position  → a position message, sane or matching time/valid/lat/lon when given
 * - positions → a non-empty positions message
 * - attributes→ a position with attributes
 * - attribute → the value under our name for that key, in the first record decoded
 *   (position, first of positions, status, or commandReply text for "result").
 */
import assert from "node:assert/strict";
import { type DeviceMessage, newSession } from "../types.ts";
import {
  closeTo,
  differs,
  fromHex,
  loadFixture,
  mismatch,
  type Reading,
  replay,
  type Sample,
  splitWhole,
} from "../test_support.ts";
import { xorChecksum } from "./checksum.ts";
import { decodeFrame } from "./decoder.ts";
import { Jt808Splitter } from "./splitter.ts";

/**
 * Samples we knowingly do not decode as the reference does, by source line, with the reason.
 * Must stay under 10% of the samples.
 */
const UNSUPPORTED: ReadonlyMap<number, string> = new Map([]);

const fixture = loadFixture("jt808-huabao.json");

/** What a Traccar attribute key reads from our record. */
interface Record {
  position?: {
    speed: number;
    course: number;
    altitude: number;
  };
  satellites?: number;
  battery?: number;
  alarms: string[];
  attributes: { [key: string]: unknown };
  text?: string;
}

function firstRecord(messages: DeviceMessage[]): Record | undefined {
  for (const m of messages) {
    if (m.type === "position" || (m.type === "positions" && m.positions.length > 0)) {
      const p = m.type === "position" ? m.position : m.positions[0];
      return {
        position: p,
        satellites: p.satellites,
        battery: p.battery,
        alarms: alarmsOf(p.alarm, p.attributes),
        attributes: p.attributes,
      };
    }
    if (m.type === "status") {
      return {
        battery: m.battery,
        satellites: typeof m.attributes.sat === "number" ? m.attributes.sat : undefined,
        alarms: alarmsOf(m.alarm, m.attributes),
        attributes: m.attributes,
      };
    }
    if (m.type === "commandReply") return { alarms: [], attributes: {}, text: m.text };
  }
  return undefined;
}

function alarmsOf(alarm: string | undefined, attributes: { [key: string]: unknown }): string[] {
  if (typeof attributes.alarms === "string") return attributes.alarms.split(",");
  return alarm ? [alarm] : [];
}

/** Traccar attribute names whose meaning lives elsewhere in our contract. */
const KEY_MAP: { [key: string]: (r: Record) => unknown } = {
  sat: (r) => r.satellites,
  batteryLevel: (r) => r.battery,
  battery: (r) => r.attributes.batteryVoltage, // Traccar "battery" is volts; ours is percent
  result: (r) => r.text,
  speed: (r) => r.position?.speed,
  course: (r) => r.position?.course,
  altitude: (r) => r.position?.altitude,
};

/** Traccar alarm names → the names we accept for them. */
const ALARM_MAP: { [name: string]: string[] } = {
  tampering: ["tamper"],
  hardAcceleration: ["harshAcceleration"],
  hardBraking: ["harshBraking"],
  hardCornering: ["harshCornering"],
  fatigueDriving: ["fatigue"],
  // Traccar reports JT/T 808 bit 7 (main power under-voltage) as lowBattery; we say lowPower.
  lowBattery: ["lowBattery", "lowPower"],
};

function attributeMismatch(messages: DeviceMessage[], key: string, expected: unknown) {
  const record = firstRecord(messages);
  if (!record) return "no record decoded";
  if (key === "alarm") {
    const want = String(expected).split(",");
    if (record.alarms.length !== want.length) return `alarms ${record.alarms} vs ${want}`;
    const missing = want.find((name) =>
      !record.alarms.some((a) => (ALARM_MAP[name] ?? [name]).includes(a))
    );
    return missing ? `alarm ${missing} missing in ${record.alarms}` : undefined;
  }
  const actual = (KEY_MAP[key] ?? ((r: Record) => r.attributes[key]))(record);
  const same = typeof expected === "number" ? closeTo(actual, expected, 1e-9) : actual === expected;
  return same ? undefined : differs(key, actual, expected);
}

/** What the suite's assertions read from JT/T 808 output (the list above). */
const reading: Reading<DeviceMessage[]> = {
  nothing: (messages) =>
    messages.some((m) => m.type === "position" || m.type === "positions")
      ? "expected no position"
      : undefined,
  something: (messages) =>
    messages.some((m) => m.type !== "identify") ? undefined : "expected a message",
  position: (messages) => messages.find((m) => m.type === "position")?.position,
  positions: (messages) => messages.find((m) => m.type === "positions")?.positions ?? [],
  attributes(messages) {
    const p = messages.find((m) => m.type === "position")?.position;
    return p !== undefined && Object.keys(p.attributes).length > 0;
  },
  attribute: attributeMismatch,
};

const check = (messages: DeviceMessage[], sample: Sample) =>
  mismatch(reading, messages, sample.expect);

Deno.test("jt808 conformance: decoder samples", async (t) => {
  let passed = 0;
  const results = replay(fixture.samples, decodeFrame, { models: true });
  for (const { sample, decoded } of results) {
    const reason = UNSUPPORTED.get(sample.line);
    if (reason !== undefined) continue;
    await t.step(
      `${sample.test}:${sample.line} ${sample.expect.kind} ${sample.expect.key ?? ""}`,
      () => {
        assert.equal(check(decoded.messages, sample), undefined);
        passed++;
      },
    );
  }
  assert.equal(passed, fixture.samples.length - UNSUPPORTED.size);
});

Deno.test("jt808 conformance: captures with a wrong check code are decoded and counted", () => {
  const bad = fixture.samples.filter((s) => s.analysis && !s.analysis.xorOk);
  assert.ok(bad.length > 0);
  for (const sample of bad) {
    const session = newSession();
    if (sample.modelOverride) session.extra.model = sample.modelOverride;
    const { messages, replies } = decodeFrame(fromHex(sample.hex), session);
    assert.ok(messages.some((m) => m.type !== "identify"), `line ${sample.line}`);
    assert.ok(replies.length > 0, `line ${sample.line} acknowledged`);
    assert.equal(session.extra.jt808BadChecksums, 1);
  }
});

Deno.test("jt808 conformance: unsupported list is small and real", () => {
  const lines = new Set(fixture.samples.map((s) => s.line));
  for (const line of UNSUPPORTED.keys()) assert.ok(lines.has(line), `no sample at line ${line}`);
  assert.ok(UNSUPPORTED.size < fixture.samples.length * 0.1, "too many unsupported samples");
});

Deno.test("jt808 conformance: frame samples through the splitter", () => {
  for (const sample of fixture.frameSamples ?? []) {
    const frames = splitWhole(new Jt808Splitter(), sample.hex);
    assert.deepEqual(frames, [sample.expect.frame], `line ${sample.line}`);
  }
});

/**
 * No capture holds a 0x0201, but its body is a 0x0200 body behind the WORD serial of the
 * 0x8201 it answers (JT/T 808-2013 §8.20). So every captured 0x0200 is replayed as the answer
 * to a query: the same location must come out, plus a commandReply carrying that serial.
 */
Deno.test("jt808 conformance: captured locations answered as 0x0201 to a position query", () => {
  const reports = fixture.samples.filter((s) => s.hex.startsWith("7e0200"));
  assert.ok(reports.length >= 50, `only ${reports.length} captures`);
  for (const [i, sample] of reports.entries()) {
    const fresh = () => {
      const session = newSession();
      if (sample.modelOverride) session.extra.model = sample.modelOverride;
      return session;
    };
    const querySerial = 0x1000 + i;
    const asReport = decodeFrame(fromHex(sample.hex), fresh()).messages;
    const { messages, replies } = decodeFrame(asQueryReply(sample.hex, querySerial), fresh());
    assert.equal(check(messages, sample), undefined, `line ${sample.line}`);
    const reply = messages.at(-1);
    assert.ok(reply?.type === "commandReply", `line ${sample.line}: no commandReply`);
    assert.deepEqual(messages.slice(0, -1), asReport, `line ${sample.line}: same decode`);
    assert.equal(reply.commandRef, querySerial);
    assert.equal(reply.success, true);
    const position = asReport.find((m) => m.type === "position");
    if (position?.type === "position") {
      const [, lat, lon] = reply.text.match(/^Lat:(-?[\d.]+),Lon:(-?[\d.]+),/) ?? [];
      assert.ok(Math.abs(Number(lat) - position.position.latitude) < 1e-6, reply.text);
      assert.ok(Math.abs(Number(lon) - position.position.longitude) < 1e-6, reply.text);
    }
    assert.deepEqual(replies, []);
  }
});

/** A captured 0x0200 frame turned into a 0x0201: id, body length, serial prefix, check code. */
function asQueryReply(captureHex: string, querySerial: number): Uint8Array {
  const content = fromHex(captureHex).slice(1, -1);
  const props = (content[2] << 8) | content[3];
  const headerLength = (props & 0x4000 ? 17 : 12) + (props & 0x2000 ? 4 : 0);
  const body = content.subarray(headerLength, content.length - 1);
  const out = new Uint8Array(headerLength + 2 + body.length);
  out.set(content.subarray(0, headerLength));
  out[1] = 0x01; // 0x0200 → 0x0201
  const length = (props & 0x3ff) + 2;
  out[2] = (props & ~0x3ff) >> 8 | length >> 8;
  out[3] = length & 0xff;
  out[headerLength] = querySerial >> 8;
  out[headerLength + 1] = querySerial & 0xff;
  out.set(body, headerLength + 2);
  return Uint8Array.from([0x7e, ...out, xorChecksum(out), 0x7e]);
}
