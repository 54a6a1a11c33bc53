import assert from "node:assert/strict";
import { decodeGt06 } from "../gateway/protocols/gt06/decoder.ts";
import { Gt06Splitter } from "../gateway/protocols/gt06/splitter.ts";
import { decodeFrame } from "../gateway/protocols/jt808/decoder.ts";
import { Jt808Splitter } from "../gateway/protocols/jt808/splitter.ts";
import { type DeviceMessage, newSession } from "../gateway/protocols/types.ts";
import { extractEvents, extractValues, faultCodes, type SensorReport } from "../sensors/extract.ts";
import { gt06HarshAlarm, Gt06Link, gt06SensorFrames, simulatorRfidCard } from "./devices/gt06.ts";
import { jt808Location } from "./devices/jt808.ts";
import { sampleFix } from "./fix.ts";
import type { SimSensors } from "./sensors.ts";
import { Vehicle } from "./vehicle.ts";

const SENSORS: SimSensors = {
  fuelLitres: 64.3,
  fuelVolts: 2.68,
  fuelPercent: 53.6,
  temps: [-17.6, 25.4],
  humidity: 61.2,
  door: true,
  power: 13.8,
  rpm: 1980,
  coolant: 88,
  engineLoad: 47,
  faults: "P0420",
  harsh: "harshBraking",
};

/** The sensor readings a decoded message gives (what the recorder would take). */
function readingsOf(m: DeviceMessage) {
  const attributes = m.type === "position"
    ? m.position.attributes
    : m.type === "status"
    ? m.attributes
    : {};
  const alarm = m.type === "position" ? m.position.alarm : undefined;
  const battery = m.type === "position"
    ? m.position.battery ?? null
    : m.type === "status"
    ? m.battery ?? null
    : null;
  const r: SensorReport = {
    time: 0,
    battery,
    attributes: alarm ? { ...attributes, alarm } : attributes,
  };
  const values = Object.fromEntries(
    extractValues(r).map((v) => [`${v.series}:${v.index}`, v.value]),
  );
  return { values, events: extractEvents(r).map((e) => e.kind), faults: faultCodes(r) };
}

Deno.test("JT/T 808: the simulated sensor items decode into the sensor series", () => {
  const frame = jt808Location("012345678901", 3, sampleFix({ sensors: SENSORS }));
  const [raw] = new Jt808Splitter().push(frame);
  const m = decodeFrame(raw, newSession()).messages.find((x) => x.type === "position")!;
  const r = readingsOf(m);
  assert.equal(r.values["fuelLitres:0"], 64.3);
  assert.equal(r.values["adc:1"], 2.68);
  assert.equal(r.values["temperature:1"], -17.6);
  assert.equal(r.values["temperature:2"], 25.4);
  assert.equal(r.values["humidity:1"], 61.2);
  assert.equal(r.values["door:1"], 1);
  assert.equal(r.values["externalVoltage:0"], 13.8);
  assert.equal(r.values["obdRpm:0"], 1980);
  assert.equal(r.values["obdCoolant:0"], 88);
  assert.equal(r.values["obdEngineLoad:0"], 47);
  assert.equal(r.values["batteryPercent:0"], 83);
  assert.equal(r.faults, "P0420");
  assert.deepEqual(r.events, ["harshBraking"]);
});

Deno.test("GT06: information and OBD packets decode into temperature, humidity, door, power, fuel, rpm", () => {
  const fix = sampleFix({ sensors: SENSORS });
  let serial = 0;
  const frames = gt06SensorFrames(fix, SENSORS, () => ++serial);
  const merged: Record<string, number> = {};
  for (const bytes of frames) {
    for (const f of new Gt06Splitter().push(bytes)) {
      for (const m of decodeGt06(f, newSession()).messages) {
        Object.assign(merged, readingsOf(m).values);
      }
    }
  }
  assert.equal(merged["temperature:1"], -17.6);
  assert.equal(merged["humidity:1"], 61.2);
  assert.equal(merged["door:1"], 1);
  assert.equal(merged["externalVoltage:0"], 13.8);
  assert.equal(merged["fuelPercent:0"], 53.6);
  assert.equal(merged["obdRpm:0"], 1980);
  assert.equal(merged["obdCoolant:0"], 88);
});

Deno.test("GT06: a harsh-driving event is an alarm packet the sensor stage reads", () => {
  const fix = sampleFix();
  for (const kind of ["harshAcceleration", "harshBraking", "harshCornering"] as const) {
    const [f] = new Gt06Splitter().push(gt06HarshAlarm(fix, 5, kind));
    const m = decodeGt06(f, newSession()).messages.find((x) => x.type === "position")!;
    assert.deepEqual(readingsOf(m).events, [kind]);
  }
});

Deno.test("GT06: a card swipe is an RFID reader packet with the device's card", () => {
  const link = new Gt06Link("864000012345678");
  const [f] = new Gt06Splitter().push(link.driverSwipe(sampleFix(), true));
  const [m] = decodeGt06(f, newSession()).messages;
  assert.equal(m.type, "status");
  const id = simulatorRfidCard("864000012345678").toString(16).padStart(8, "0");
  assert.equal(m.type === "status" && m.attributes.driverUniqueId, id);
});

Deno.test("vehicle: over a day the fuel is burnt and refilled, the door opens, harsh events happen", () => {
  const start = Date.UTC(2026, 10, 2, 0, 0, 0);
  let refuels = 0, drops = 0, doors = 0, harsh = 0, faults = 0;
  for (let seed = 1; seed <= 6; seed++) {
    const v = new Vehicle({ seed, start, mode: "driving" });
    let last = v.fix().sensors!;
    for (let t = 1; t <= 24 * 60; t++) {
      const s = v.advance(start + t * 60_000).fix.sensors!;
      if (s.fuelLitres > last.fuelLitres + 5) refuels++;
      if (s.fuelLitres < last.fuelLitres) drops++;
      if (s.door && !last.door) doors++;
      if (s.harsh) harsh++;
      if (s.faults) faults++;
      assert.ok(s.fuelLitres >= 0 && s.fuelLitres <= 120);
      assert.ok(s.temps[0] >= -18.5 && s.temps[0] <= 27);
      last = s;
    }
  }
  assert.ok(refuels > 0, "refuels");
  assert.ok(drops > 100, "consumption");
  assert.ok(doors > 0, "door openings");
  assert.ok(harsh > 0, "harsh events");
  assert.ok(faults > 0, "fault codes");
});
