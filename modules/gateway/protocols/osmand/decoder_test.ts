import assert from "node:assert/strict";
import type { Position } from "../types.ts";
import { decodeOsmAndRequest, MAX_BODY_LENGTH, type OsmAndRequest } from "./decoder.ts";
import { encodeCommandReply } from "./encoder.ts";

const NOW = new Date("2026-03-01T12:00:00Z");
const get = (url: string) => decodeOsmAndRequest({ method: "GET", url }, NOW);
const postJson = (body: unknown) =>
  decodeOsmAndRequest({
    method: "POST",
    url: "/",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  }, NOW);

function onlyPosition(result: ReturnType<typeof get>): Position {
  assert.ok(!("error" in result), JSON.stringify(result));
  assert.equal(result.positions.length, 1);
  return result.positions[0];
}

function errorOf(result: ReturnType<typeof get>): string {
  assert.ok("error" in result, `expected an error, got ${JSON.stringify(result)}`);
  return result.error;
}

Deno.test("osmand query: fields, units and unknown keys", () => {
  const result = get(
    "/?id=abc&lat=60.5&lon=-30.25&timestamp=1377177267&speed=12.5&bearing=370&altitude=15" +
      "&accuracy=4&hdop=0.9&batt=87.4&charge=true&driverUniqueId=D1&ignition=false&rpm=933&note=hi",
  );
  assert.ok(!("error" in result));
  assert.equal(result.deviceId, "abc");
  assert.deepEqual(result.positions[0], {
    time: new Date(1377177267000),
    valid: true,
    latitude: 60.5,
    longitude: -30.25,
    altitude: 15,
    speed: 12.5, // knots, as sent
    course: 10,
    posType: 1,
    battery: 87,
    acc: false,
    attributes: {
      accuracy: 4,
      hdop: 0.9,
      charge: true,
      driverUniqueId: "D1",
      rpm: 933,
      note: "hi",
    },
  });
});

Deno.test("osmand query: timestamp forms", () => {
  const time = (value: string) =>
    onlyPosition(get(`/?id=1&lat=1&lon=1&timestamp=${value}`)).time.toISOString();
  assert.equal(time("1442068686"), "2015-09-12T14:38:06.000Z");
  assert.equal(time("1442068686579"), "2015-09-12T14:38:06.579Z");
  assert.equal(time("2016-01-27T18%3A55%3A47Z"), "2016-01-27T18:55:47.000Z");
  assert.equal(time("2014-06-04+09%3A10%3A11"), "2014-06-04T09:10:11.000Z"); // no zone: UTC
  assert.equal(time("2016-01-27T20%3A55%3A47%2B02%3A00"), "2016-01-27T18:55:47.000Z");
  assert.equal(onlyPosition(get("/?id=1&lat=1&lon=1")).time, NOW, "missing: receive time");
});

Deno.test("osmand query: valid flag, location pair and heartbeat", () => {
  assert.equal(onlyPosition(get("/?id=1&lat=1&lon=2&valid=false")).valid, false);
  const position = onlyPosition(get("/?id=1&location=60.0,30.0"));
  assert.deepEqual([position.latitude, position.longitude], [60, 30]);
  assert.deepEqual(get("/?id=1&batt=50"), { deviceId: "1", positions: [] });
});

Deno.test("osmand query: cells and wifi without a fix give a network position", () => {
  const position = onlyPosition(get("/?deviceid=9&cell=257,2,16,2224,-90"));
  assert.equal(position.posType, 2);
  assert.equal(position.valid, false);
  assert.deepEqual(JSON.parse(String(position.attributes.cellTowers)), [
    { mcc: 257, mnc: 2, lac: 16, cid: 2224, rssi: -90 },
  ]);
  assert.equal(onlyPosition(get("/?id=9&wifi=00-14-22-01-23-45,-80")).posType, 3);
});

Deno.test("osmand form body extends the query string", () => {
  const position = onlyPosition(decodeOsmAndRequest({
    method: "POST",
    url: "/?id=7",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: "lat=10&lon=20&speed=3",
  }, NOW));
  assert.deepEqual([position.latitude, position.longitude, position.speed], [10, 20, 3]);
});

Deno.test("osmand json: units and mapped fields", () => {
  const result = postJson({
    device_id: 42,
    location: {
      timestamp: "2021-07-21T08:06:34.444Z",
      coords: {
        latitude: -6.1,
        longitude: 106.6,
        speed: 10,
        heading: 63,
        altitude: 35.7,
        accuracy: 3.8,
      },
      is_moving: true,
      odometer: 12345,
      event: "motionchange",
      battery: { level: 0.79, is_charging: true },
      activity: { type: "in_vehicle" },
      extras: { trip: { id: 5 }, driver: "ann" },
      _: "&id=42&",
    },
  });
  assert.ok(!("error" in result));
  assert.equal(result.deviceId, "42");
  const [position] = result.positions;
  assert.ok(Math.abs(position.speed - 19.438445) < 1e-5, "m/s → knots");
  assert.equal(position.course, 63);
  assert.equal(position.mileage, 12.345);
  assert.equal(position.battery, 79);
  assert.deepEqual(position.attributes, {
    accuracy: 3.8,
    motion: true,
    event: "motionchange",
    activity: "in_vehicle",
    charge: true,
    trip: '{"id":5}',
    driver: "ann",
  });
});

Deno.test("osmand json: unknown markers (-1) and batches", () => {
  const location = (latitude: number) => ({
    timestamp: "2025-05-09T04:11:30.579Z",
    coords: { latitude, longitude: 1, speed: -1, heading: -1 },
    battery: { level: -1 },
  });
  const result = postJson({ device_id: "x", location: [location(1), location(2)] });
  assert.ok(!("error" in result));
  assert.equal(result.positions.length, 2);
  assert.equal(result.positions[0].speed, 0);
  assert.equal(result.positions[0].course, 0);
  assert.equal(result.positions[0].battery, undefined);
});

Deno.test("osmand json: an array of objects (Traccar's client SDK) is one device's batch", () => {
  const item = (latitude: number, id?: string) => ({
    ...(id === undefined ? {} : { device_id: id }),
    location: {
      timestamp: `2025-05-09T04:11:3${latitude}.000Z`,
      coords: { latitude, longitude: 1 },
    },
  });
  const result = postJson([item(1, "dev1"), item(2, "dev1"), item(3)]);
  assert.ok(!("error" in result), JSON.stringify(result));
  assert.equal(result.deviceId, "dev1");
  assert.deepEqual(result.positions.map((p) => p.latitude), [1, 2, 3]);
  // Without a content type, a body starting with "[" is JSON too; the query may name the device.
  const bare = decodeOsmAndRequest({
    method: "POST",
    url: "/?id=q7",
    body: JSON.stringify([item(4)]),
  }, NOW);
  assert.ok(!("error" in bare));
  assert.equal(bare.deviceId, "q7");
  assert.equal(bare.positions.length, 1);
  assert.match(errorOf(postJson([item(1, "a"), item(2, "b")])), /several devices/);
  assert.match(errorOf(postJson([item(1, "a"), 5])), /must be objects/);
});

Deno.test("osmand: alarm= names become the binary protocols' alarm types", () => {
  const alarm = (name: string) => onlyPosition(get(`/?id=1&lat=1&lon=1&alarm=${name}`));
  const expected: Record<string, string> = {
    sos: "sos",
    general: "general",
    vibration: "vibration",
    movement: "movement",
    overspeed: "overspeed",
    fallDown: "fall",
    lowPower: "lowPower",
    lowBattery: "lowBattery",
    fault: "general",
    powerOff: "powerOff",
    powerOn: "powerOn",
    door: "door",
    lock: "general",
    unlock: "general",
    geofence: "general",
    geofenceEnter: "geofenceEnter",
    geofenceExit: "geofenceExit",
    gpsAntennaCut: "gpsAntennaCut",
    accident: "accident",
    tow: "movement",
    idle: "general",
    highRpm: "general",
    hardAcceleration: "harshAcceleration",
    hardBraking: "harshBraking",
    hardCornering: "harshCornering",
    laneChange: "general",
    fatigueDriving: "fatigue",
    powerCut: "powerCut",
    powerRestored: "powerOn",
    jamming: "tamper",
    temperature: "temperature",
    parking: "general",
    shock: "vibration",
    bonnet: "door",
    footBrake: "general",
    fuelLeak: "general",
    tampering: "tamper",
    removing: "removing",
  };
  for (const [name, type] of Object.entries(expected)) {
    const position = alarm(name);
    assert.equal(position.alarm, type, name);
    assert.equal(position.attributes.alarmName, name === type ? undefined : name, name);
  }
  // Several alarms: the first known one; an unknown name stays an attribute only.
  assert.equal(alarm("nonsense,sos").alarm, "sos");
  const unknown = alarm("nonsense");
  assert.equal(unknown.alarm, undefined);
  assert.equal(unknown.attributes.alarmName, "nonsense");
  const json = postJson({
    device_id: "1",
    location: { coords: { latitude: 1, longitude: 1 }, extras: { alarm: "sos" } },
  });
  assert.ok(!("error" in json));
  assert.equal(json.positions[0].alarm, "sos");
});

Deno.test("osmand: a time before 2000 decodes (the gateway acknowledges and drops it)", () => {
  const time = (value: string) =>
    onlyPosition(get(`/?id=1&lat=1&lon=1&timestamp=${value}`)).time.toISOString();
  assert.equal(time("0"), "1970-01-01T00:00:00.000Z");
  assert.equal(time("1999-12-31T23%3A59%3A59Z"), "1999-12-31T23:59:59.000Z");
});

Deno.test("osmand: hostile input gives an error, never a throw", () => {
  const cases: Array<[string, OsmAndRequest]> = [
    ["missing id", { method: "GET", url: "/?lat=1&lon=2" }],
    ["bad lat", { method: "GET", url: "/?id=1&lat=abc&lon=2" }],
    ["lat range", { method: "GET", url: "/?id=1&lat=91&lon=2" }],
    ["lon range", { method: "GET", url: "/?id=1&lat=1&lon=-180.5" }],
    ["NaN", { method: "GET", url: "/?id=1&lat=NaN&lon=2" }],
    ["Infinity", { method: "GET", url: "/?id=1&lat=1&lon=Infinity" }],
    ["half fix", { method: "GET", url: "/?id=1&lat=1" }],
    ["bad speed", { method: "GET", url: "/?id=1&lat=1&lon=1&speed=fast" }],
    ["bad time", { method: "GET", url: "/?id=1&lat=1&lon=1&timestamp=yesterday" }],
    ["time range", { method: "GET", url: "/?id=1&lat=1&lon=1&timestamp=99999999999999999" }],
    ["bad date", { method: "GET", url: "/?id=1&lat=1&lon=1&timestamp=2024-02-30T00:00:00Z" }],
    ["bad cell", { method: "GET", url: "/?id=1&cell=1,2" }],
    ["control id", { method: "GET", url: "/?id=a%00b&lat=1&lon=1" }],
    ["long id", { method: "GET", url: `/?id=${"9".repeat(200)}&lat=1&lon=1` }],
    ["method", { method: "DELETE", url: "/?id=1&lat=1&lon=1" }],
    ["long url", { method: "GET", url: "/?id=1&x=" + "a".repeat(9000) }],
    ["big body", { method: "POST", url: "/", body: "{" + " ".repeat(MAX_BODY_LENGTH) + "}" }],
    ["bad json", { method: "POST", url: "/", body: '{"device_id":' }],
    ["json array", {
      method: "POST",
      url: "/",
      body: "[]",
      headers: { "Content-Type": "application/json" },
    }],
    ["no coords", { method: "POST", url: "/", body: '{"device_id":"1","location":{}}' }],
    ["string lat", {
      method: "POST",
      url: "/",
      body: '{"device_id":"1","location":{"coords":{"latitude":"1","longitude":2}}}',
    }],
    ["deep json", {
      method: "POST",
      url: "/",
      headers: { "Content-Type": "application/json" },
      body: '{"location":' + "[".repeat(100000) + "]".repeat(100000) + "}",
    }],
  ];
  for (const [name, request] of cases) {
    assert.ok(errorOf(decodeOsmAndRequest(request, NOW)).length > 0, name);
  }
});

Deno.test("osmand: prototype keys never reach attributes' prototype", () => {
  const position = onlyPosition(get("/?id=1&lat=1&lon=1&__proto__=x&constructor=y&toString=z"));
  assert.equal(Object.getPrototypeOf(position.attributes), Object.prototype);
  assert.equal(position.attributes.toString, "z");
  assert.ok(!Object.hasOwn(position.attributes, "__proto__"));
  const json = postJson({
    device_id: "1",
    location: {
      coords: { latitude: 1, longitude: 1 },
      extras: JSON.parse('{"__proto__":{"a":1}}'),
    },
  });
  assert.ok(!("error" in json));
  assert.equal(Object.getPrototypeOf(json.positions[0].attributes), Object.prototype);
});

Deno.test("osmand: random query strings never throw", () => {
  let state = 3;
  const random = (limit: number) => (state = (state * 1103515245 + 12345) & 0x7fffffff) % limit;
  const alphabet = "id=lat&lon=1.-,%:T Z+eE0123456789cellwifitimestamp";
  for (let round = 0; round < 3000; round++) {
    const url = "/?" +
      Array.from({ length: random(60) }, () => alphabet[random(alphabet.length)]).join("");
    decodeOsmAndRequest({ method: "GET", url }, NOW);
    decodeOsmAndRequest({ method: "POST", url: "/", body: url.slice(2) }, NOW);
  }
});

Deno.test("osmand encoder: command as a one-line text body", () => {
  assert.equal(encodeCommandReply({ content: " reboot\r\nnow ", ref: 1 }), "reboot now");
});
