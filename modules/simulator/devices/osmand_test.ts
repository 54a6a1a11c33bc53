import assert from "node:assert/strict";
import { decodeOsmAndRequest, encodeCommandReply } from "../../gateway/protocols/osmand/index.ts";
import { KMH_PER_KNOT, sampleFix } from "../fix.ts";
import { osmandCommand, osmandJson, osmandQuery } from "./osmand.ts";

const IMEI = "860000001234563";

function decode(parts: ReturnType<typeof osmandQuery>) {
  const r = decodeOsmAndRequest({
    method: parts.method,
    url: parts.path,
    headers: parts.headers,
    body: parts.body,
  });
  assert.ok(!("error" in r), JSON.stringify(r));
  return r;
}

Deno.test("osmand query form round-trips time, coordinates, knots, course, battery, ACC", () => {
  const fix = sampleFix({ speedKmh: 61.3, course: 271 });
  const r = decode(osmandQuery(IMEI, fix));
  assert.equal(r.deviceId, IMEI);
  const [p] = r.positions;
  assert.equal(p.time.toISOString(), fix.time.toISOString());
  assert.equal(p.latitude, fix.latitude);
  assert.equal(p.longitude, fix.longitude);
  assert.ok(Math.abs(p.speed - fix.speedKmh / KMH_PER_KNOT) < 0.006);
  assert.equal(p.course, 271);
  assert.equal(p.altitude, fix.altitude);
  assert.equal(p.battery, fix.battery);
  assert.equal(p.acc, true);
  assert.equal(p.valid, true);
});

Deno.test("osmand JSON form round-trips, and an array is a batch", () => {
  const fixes = [0, 1, 2].map((i) =>
    sampleFix({ time: new Date(Date.UTC(2024, 4, 17, 8, 30, i)), speedKmh: 36 + i })
  );
  const one = decode(osmandJson(IMEI, [fixes[0]]));
  assert.equal(one.deviceId, IMEI);
  const [p] = one.positions;
  assert.equal(p.time.toISOString(), fixes[0].time.toISOString());
  assert.equal(p.latitude, fixes[0].latitude);
  assert.ok(Math.abs(p.speed - 36 / KMH_PER_KNOT) < 1e-9);
  assert.equal(p.mileage, fixes[0].odometerKm);
  assert.equal(p.battery, fixes[0].battery);
  const batch = decode(osmandJson(IMEI, fixes));
  assert.deepEqual(
    batch.positions.map((x) => x.time.getTime()),
    fixes.map((f) => f.time.getTime()),
  );
});

Deno.test("osmand answer body carries the pending command", () => {
  assert.equal(osmandCommand(encodeCommandReply({ content: "STATUS#", ref: 0 })), "STATUS#");
  assert.equal(osmandCommand(""), null);
});
