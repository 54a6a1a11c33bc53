/**
 * The sensor series from real device captures (../shared/fixtures/protocols): every GT06 and
 * JT/T 808 sample whose reference assertion is a sensor attribute (probe temperatures, humidity,
 * door, supply volts, fuel, analog input, rpm) is decoded by our decoder and extracted; the
 * series must hold the value the reference suite asserts.
 */
import assert from "node:assert/strict";
import { gt06 } from "../gateway/protocols/gt06/index.ts";
import { decodeFrame } from "../gateway/protocols/jt808/decoder.ts";
import { closeTo, loadFixture, replay, type Sample } from "../gateway/protocols/test_support.ts";
import type { DeviceMessage, Position } from "../gateway/protocols/types.ts";
import { extractValues, type SensorReport } from "./extract.ts";

/** Reference attribute → our series:probe, and the reference value in the series' unit. */
const SERIES_OF: Record<string, [string, (v: unknown) => number]> = {
  temp1: ["temperature:1", Number],
  temp3: ["temperature:3", Number],
  humidity: ["humidity:1", Number],
  door: ["door:1", (v) => (v ? 1 : 0)],
  power: ["externalVoltage:0", Number],
  fuel1: ["fuelLitres:0", Number],
  adc1: ["adc:1", Number],
  rpm: ["obdRpm:0", Number],
};

/** Samples the protocols' conformance tests list as knowingly not decoded (same reasons). */
const NOT_DECODED: Record<string, number[]> = { gt06: [20] };

function reports(messages: DeviceMessage[]): SensorReport[] {
  const fromFix = (p: Position): SensorReport => ({
    time: p.time.getTime(),
    battery: p.battery ?? null,
    attributes: p.attributes,
  });
  return messages.flatMap((m): SensorReport[] => {
    if (m.type === "position") return [fromFix(m.position)];
    if (m.type === "positions") return m.positions.map(fromFix);
    if (m.type === "status") {
      return [{ time: m.time.getTime(), battery: m.battery ?? null, attributes: m.attributes }];
    }
    return [];
  });
}

function check(name: string, results: { sample: Sample; decoded: DeviceMessage[] }[]): number {
  let checked = 0;
  for (const { sample, decoded } of results) {
    const e = sample.expect;
    const map = e.kind === "attribute" ? SERIES_OF[e.key!] : undefined;
    if (!map || e.value === null || NOT_DECODED[name]?.includes(sample.line)) continue;
    const [series, convert] = map;
    const expected = convert(e.value);
    const values = reports(decoded).flatMap((r) =>
      extractValues(r).filter((v) => `${v.series}:${v.index}` === series).map((v) => v.value)
    );
    assert.ok(
      values.some((v) => closeTo(v, expected, 1e-6)),
      `${name} line ${sample.line} (${e.key}): ${series} ${
        JSON.stringify(values)
      }, not ${expected}`,
    );
    checked++;
  }
  return checked;
}

Deno.test("GT06 captures: temperature, humidity, door, supply volts, analog input", () => {
  const fixture = loadFixture("gt06.json");
  const results = replay(
    fixture.samples,
    (bytes, session) => gt06.decode(bytes, session).messages,
    {
      models: true,
    },
  );
  assert.ok(check("gt06", results) >= 12);
});

Deno.test("JT/T 808 captures: probes, supply volts, door, fuel, rpm", () => {
  const fixture = loadFixture("jt808-huabao.json");
  const results = replay(
    fixture.samples,
    (bytes, session) => decodeFrame(bytes, session).messages,
    {
      models: true,
    },
  );
  assert.ok(check("jt808", results) >= 10);
});
