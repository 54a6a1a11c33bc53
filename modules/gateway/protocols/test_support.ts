/**
 * The one conformance harness for the protocols (test support, not a test file): loads the
 * real device captures in shared/fixtures/protocols/ (Traccar's decoder-test vectors, see its
 * README), replays them the way that suite does (one fresh session per `test`, samples in file
 * order, the model it set), checks each expectation kind, and keeps the "knowingly
 * unsupported" lists honest. A protocol says only how its decoded output answers the suite's
 * assertions (a `Reading`): which messages count as a position, what a Traccar attribute key
 * reads from.
 */
import assert from "node:assert/strict";
import { newSession, type Position, type ProtocolSession } from "./types.ts";

const FIXTURES = new URL("../../../../shared/fixtures/protocols/", import.meta.url);

/** What the reference suite asserts about one sample (fixture README). */
export interface Expect {
  kind: "null" | "notnull" | "position" | "positions" | "attributes" | "attribute" | "frame";
  time?: string;
  valid?: boolean;
  latitude?: number;
  longitude?: number;
  key?: string;
  value?: unknown;
  frame?: string;
}

export interface Sample {
  hex: string;
  text?: string;
  expect: Expect;
  test: string;
  line: number;
  modelOverride?: string;
  analysis?: { xorOk: boolean };
}

export interface Fixture<S = Sample> {
  samples: S[];
  frameSamples?: Sample[];
}

/** A capture file by name, e.g. "gt06.json". */
export function loadFixture<S = Sample>(name: string): Fixture<S> {
  return JSON.parse(Deno.readTextFileSync(new URL(name, FIXTURES)));
}

export function fromHex(hex: string): Uint8Array {
  return Uint8Array.from(hex.match(/../g) ?? [], (pair) => parseInt(pair, 16));
}

export function toHex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Decodes every sample in order with one session per fixture `test`, as the reference suite
 * runs one decoder per test method. `models`: the session carries the sample's modelOverride
 * (and forgets it on a sample without one), as the suite sets the model before decoding.
 */
export function replay<D>(
  samples: Sample[],
  decode: (bytes: Uint8Array, session: ProtocolSession) => D,
  options: { models?: boolean } = {},
): { sample: Sample; decoded: D }[] {
  const sessions = new Map<string, ProtocolSession>();
  return samples.map((sample) => {
    const session = sessions.get(sample.test) ?? newSession();
    sessions.set(sample.test, session);
    if (options.models) {
      if (sample.modelOverride) session.extra.model = sample.modelOverride;
      else delete session.extra.model;
    }
    return { sample, decoded: decode(fromHex(sample.hex), session) };
  });
}

/** How a protocol's decoded output (`D`) answers each expectation kind. */
export interface Reading<D> {
  /** "null": why the output is not "nothing", or undefined. */
  nothing(decoded: D): string | undefined;
  /** "notnull": why the output is not "something", or undefined. */
  something(decoded: D): string | undefined;
  /** The position "position" checks. */
  position(decoded: D): Position | undefined;
  /** The positions "positions" requires to be non-empty. */
  positions(decoded: D): Position[];
  /** "attributes": whether a record carries attributes. */
  attributes?(decoded: D): boolean;
  /** "attribute": why the key does not read as the expected value, or undefined. */
  attribute?(decoded: D, key: string, expected: unknown): string | undefined;
}

/** Why the decoded output does not meet the expectation, or undefined when it does. */
export function mismatch<D>(reading: Reading<D>, decoded: D, expect: Expect): string | undefined {
  switch (expect.kind) {
    case "null":
      return reading.nothing(decoded);
    case "notnull":
      return reading.something(decoded);
    case "positions":
      return reading.positions(decoded).length > 0 ? undefined : "expected positions";
    case "position": {
      const p = reading.position(decoded);
      return p ? positionMismatch(expect, p) : "expected a position";
    }
    case "attributes":
      if (!reading.attributes) return "attributes: not read by this protocol";
      return reading.attributes(decoded) ? undefined : "expected a record with attributes";
    case "attribute":
      if (!reading.attribute) return "attribute: not read by this protocol";
      return reading.attribute(decoded, expect.key ?? "", expect.value);
    default:
      return `unknown expectation ${expect.kind}`;
  }
}

const EARLIEST_FIX = Date.UTC(2000, 0, 1);

/** Reference times are "yyyy-MM-dd HH:mm:ss.SSS", UTC. */
export const referenceTime = (text: string) => Date.parse(text.replace(" ", "T") + "Z");

/**
 * A position as the suite checks it: the asserted time (else a plausible one), validity and
 * coordinates (to 1e-5), and coordinates in range.
 */
export function positionMismatch(expect: Expect, p: Position): string | undefined {
  const failures: string[] = [];
  if (expect.time !== undefined) {
    if (p.time.getTime() !== referenceTime(expect.time)) {
      failures.push(`time ${p.time.toISOString()} != ${expect.time}`);
    }
  } else if (!(p.time.getTime() > EARLIEST_FIX)) {
    failures.push(`implausible time ${p.time.toISOString()}`);
  }
  if (expect.valid !== undefined && p.valid !== expect.valid) {
    failures.push(`valid ${p.valid} != ${expect.valid}`);
  }
  for (const key of ["latitude", "longitude"] as const) {
    const wanted = expect[key];
    if (wanted !== undefined && !(Math.abs(p[key] - wanted) <= 1e-5)) {
      failures.push(`${key} ${p[key]} != ${wanted}`);
    }
  }
  if (Math.abs(p.latitude) > 90 || Math.abs(p.longitude) > 180) {
    failures.push("coordinates out of range");
  }
  return failures.length ? failures.join("; ") : undefined;
}

/** Numbers equal to a relative tolerance (values the reference computes in doubles). */
export function closeTo(actual: unknown, expected: number, relative: number): boolean {
  return typeof actual === "number" &&
    Math.abs(actual - expected) <= relative * Math.max(1, Math.abs(expected));
}

/** A "key=value" failure line. */
export function differs(key: string, actual: unknown, expected: unknown): string {
  return `${key}=${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`;
}

/**
 * Samples a decoder knowingly does not decode as the reference does, by key, with the reason:
 * the list stays under 10 % of the samples, names only real samples, and every listed sample
 * still fails (one that passes must leave the list).
 */
export function assertConformance<S extends { line: number }, D>(
  results: { sample: S; decoded: D }[],
  check: (decoded: D, sample: S) => string | undefined,
  unsupported: ReadonlyMap<string, string>,
  keyOf: (sample: S) => string,
  label: (sample: S) => string = (s) => {
    const raw = (s as Partial<Sample>).text ?? (s as Partial<Sample>).hex ?? "";
    return `${raw.slice(0, 24)}…`;
  },
): void {
  const failures: string[] = [];
  const nowPassing: string[] = [];
  for (const { sample, decoded } of results) {
    const key = keyOf(sample);
    const problem = check(decoded, sample);
    if (unsupported.has(key)) {
      if (problem === undefined) nowPassing.push(key);
    } else if (problem !== undefined) {
      failures.push(`${key} ${label(sample)}: ${problem}`);
    }
  }
  assert.deepEqual(failures, []);
  assert.deepEqual(nowPassing, [], "now passing: remove from the unsupported list");
  assertUnsupportedList(results.map((r) => r.sample), unsupported, keyOf);
}

/** The unsupported list names real samples and stays under 10 % of them. */
export function assertUnsupportedList<S>(
  samples: S[],
  unsupported: ReadonlyMap<string, string>,
  keyOf: (sample: S) => string,
): void {
  const keys = new Set(samples.map(keyOf));
  for (const key of unsupported.keys()) assert.ok(keys.has(key), `no sample ${key}`);
  assert.ok(
    unsupported.size < samples.length * 0.1,
    `${unsupported.size}/${samples.length} unsupported`,
  );
}

/** The frames a fresh splitter gives for the bytes pushed at once, as hex. */
export function splitWhole(splitter: { push(b: Uint8Array): Uint8Array[] }, hex: string) {
  return splitter.push(fromHex(hex)).map(toHex);
}

/** The frames a fresh splitter gives for the bytes pushed one at a time, as hex. */
export function splitByteByByte(splitter: { push(b: Uint8Array): Uint8Array[] }, hex: string) {
  return Array.from(fromHex(hex)).flatMap((b) => splitter.push(Uint8Array.of(b))).map(toHex);
}
