import assert from "node:assert/strict";
import { SensorReadings } from "./reader.ts";
import { type FuelTank, SensorRecorder } from "./recorder.ts";
import { SensorStore } from "./store.ts";
import { fixAt } from "./test_support.ts";
import { openTestKv } from "../../tests/helpers/test_kv.ts";

const IMEI = "864000000000011";
const DAY1 = Date.UTC(2026, 10, 2, 6, 0, 0);
const MIN = 60_000;

/** A cube tank 100 × 50 × 40 cm (200 L) read by a 0-5 V sensor on ADC 1. */
const TANK: FuelTank = {
  shape: "cube",
  width: 100,
  length: 50,
  height: 40,
  diameter: null,
  minVoltage: 0,
  maxVoltage: 5,
  capacity: 200,
  refuelThreshold: 15,
};

const fix = fixAt;

async function withStore(fn: (kv: Deno.Kv, store: SensorStore) => Promise<void>) {
  const dir = await Deno.makeTempDir();
  const kv = await openTestKv(`${dir}/kv.sqlite3`);
  try {
    await fn(kv, new SensorStore(kv));
  } finally {
    kv.close();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("recorder: ADC volts become litres by the tank, a refuel is found, reads see it all", async () => {
  await withStore(async (_kv, store) => {
    const now = DAY1 + 3 * 3600_000;
    const recorder = new SensorRecorder({
      store,
      tanks: () => Promise.resolve([TANK]),
      now: () => now,
    });
    const reader = new SensorReadings(store, recorder);
    // 30 min at 1.5 V (60 L), a refuel over 4 reports to 4.5 V (180 L), 30 min there.
    const volts = [...Array(30).fill(1.5), 2.25, 3, 3.75, 4.5, ...Array(30).fill(4.5)];
    const points = volts.map((v, i) =>
      fix(DAY1 + i * MIN, { adc1: v, temp1: 4 + (i % 3), door: i === 40 })
    );
    recorder.onCommitted({ type: "positionsCommitted", imei: IMEI, userId: "u1", points });
    await recorder.flush();

    const litres = await reader.series(IMEI, "fuelLitres", DAY1, DAY1 + 3600_000 * 2);
    assert.equal(litres[0].value, 60);
    assert.equal(litres[0].lat, 22.5431);
    assert.equal(litres.at(-1)!.value, 180);
    const events = await reader.events(IMEI, ["refuel", "drain"], DAY1, DAY1 + 86_400_000);
    assert.equal(events.length, 1);
    assert.equal(events[0].kind, "refuel");
    assert.ok(Math.abs((events[0].data.amount as number) - 120) <= 2, JSON.stringify(events[0]));
    assert.equal(events[0].data.before, 60);
    assert.equal(events[0].data.after, 180);

    // Unchanged values are kept once per 5 minutes; changes always.
    const temps = await reader.series(IMEI, "temperature", DAY1, DAY1 + 86_400_000);
    assert.equal(temps.length, volts.length);
    assert.deepEqual([...new Set(temps.map((t) => t.value))].sort(), [4, 5, 6]);
    assert.ok(temps.every((t) => t.index === 1));
    const doors = await reader.series(IMEI, "door", DAY1, DAY1 + 86_400_000);
    assert.deepEqual(doors.filter((d) => d.value === 1).map((d) => d.time), [DAY1 + 40 * MIN]);
    const battery = await reader.series(IMEI, "batteryPercent", DAY1, DAY1 + 86_400_000);
    assert.deepEqual(
      battery.map((b) => b.time),
      [0, 5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55, 60]
        .map((m) => DAY1 + m * MIN),
    );

    const has = await reader.reports(IMEI);
    for (const s of ["fuelLitres", "adc", "temperature", "door", "batteryPercent"] as const) {
      assert.ok(has.series.includes(s), s);
    }
    assert.deepEqual(has.events, ["refuel"]);
    // A range is [from, to).
    assert.equal((await reader.series(IMEI, "fuelLitres", DAY1, DAY1 + MIN)).length, 1);
    assert.deepEqual(await reader.series("864000000000099", "fuelLitres", DAY1, DAY1 + MIN), []);
    await recorder.stop();
  });
});

Deno.test("recorder: status reports, fault codes, harsh driving and clock-ins are events", async () => {
  await withStore(async (_kv, store) => {
    const recorder = new SensorRecorder({ store, tanks: () => Promise.resolve([]) });
    const reader = new SensorReadings(store, recorder);
    const status = (time: number, attributes: Record<string, string | number | boolean>) =>
      recorder.onStatusReported({
        type: "statusReported",
        imei: IMEI,
        userId: "u1",
        time,
        battery: null,
        attributes,
        alarm: time === DAY1 + 2 * MIN ? "harshAcceleration" : null,
        lat: 22.5,
        lng: 114,
      });
    status(DAY1, { temp1: -18.5, humidity: 40, power: 12.6, rpm: 900, dtcs: "P0420 P0301" });
    status(DAY1 + MIN, { dtcs: "P0301 P0420" }); // the same codes: no new event
    status(DAY1 + 2 * MIN, { dtcs: "P0171" });
    recorder.onCommitted({
      type: "positionsCommitted",
      imei: IMEI,
      userId: "u1",
      points: [fix(DAY1 + 3 * MIN, { alarm: "harshBraking" }, 50)],
    });
    const swipe = (time: number, type: "in" | "out" | "swipe") =>
      recorder.onIdentified({
        type: "driverIdentified",
        imei: IMEI,
        userId: "u1",
        identity: {
          id: String(time),
          imei: IMEI,
          time: new Date(time).toISOString(),
          type,
          cardNo: "A1B2C3D4",
          name: "Li Lei",
          issuer: "",
          certificateExpiry: "",
          readResult: 0,
          lat: 22.5,
          lng: 114,
        },
      });
    swipe(DAY1 + 4 * MIN, "swipe");
    swipe(DAY1 + 5 * MIN, "swipe");
    // Read before anything is stored: the recorder's memory answers.
    const faultsNow = await reader.events(IMEI, ["obdFault"], DAY1, DAY1 + 3600_000);
    assert.equal(faultsNow.length, 2);
    await recorder.flush();
    const all = await reader.events(
      IMEI,
      ["obdFault", "harshAcceleration", "harshBraking", "rfidIn", "rfidOut"],
      DAY1,
      DAY1 + 3600_000,
    );
    assert.deepEqual(all.map((e) => e.kind), [
      "obdFault",
      "harshAcceleration",
      "obdFault",
      "harshBraking",
      "rfidIn",
      "rfidOut",
    ]);
    assert.equal(all[0].data.codes, "P0301 P0420");
    assert.equal(all[2].data.codes, "P0171");
    assert.equal(all[4].data.cardNo, "A1B2C3D4");
    assert.equal(all[4].data.driverName, "Li Lei");
    assert.equal(all[3].lat, 22.5431);
    assert.deepEqual(
      (await reader.series(IMEI, "temperature", DAY1, DAY1 + MIN)).map((s) => s.value),
      [-18.5],
    );
    assert.deepEqual(
      (await reader.series(IMEI, "humidity", DAY1, DAY1 + MIN)).map((s) => s.index),
      [1],
    );
    assert.deepEqual(
      (await reader.series(IMEI, "externalVoltage", DAY1, DAY1 + MIN)).map((s) => s.value),
      [12.6],
    );
    assert.deepEqual((await reader.series(IMEI, "obdRpm", DAY1, DAY1 + MIN)).map((s) => s.value), [
      900,
    ]);
    await recorder.stop();
  });
});

Deno.test("store: a finished day's parts are compacted into blocks, reads unchanged", async () => {
  await withStore(async (kv, store) => {
    let now = DAY1;
    const recorder = new SensorRecorder({
      store,
      tanks: () => Promise.resolve([]),
      now: () => now,
    });
    const reader = new SensorReadings(store, recorder);
    // Three flushes of 2,000 readings each (1 a second, values changing), then the next day.
    for (let part = 0; part < 3; part++) {
      const points = Array.from({ length: 2000 }, (_, i) => {
        const k = part * 2000 + i;
        return fix(DAY1 + k * 1000, { fuel: 100 - k / 100, temp1: (k % 50) / 10 });
      });
      recorder.onCommitted({ type: "positionsCommitted", imei: IMEI, userId: "u1", points });
      await recorder.flush();
    }
    const before = await reader.series(IMEI, "fuelLitres", DAY1, DAY1 + 86_400_000);
    assert.equal(before.length, 6000);
    const keys = async () => {
      const out: Deno.KvKey[] = [];
      for await (const e of kv.list({ prefix: ["sensors", "s", IMEI, "fuelLitres"] })) {
        out.push(e.key);
      }
      return out;
    };
    assert.ok((await keys()).length >= 3);
    now = DAY1 + 86_400_000;
    // Cluster mode: an instance that is not the leader leaves the compaction to the leader.
    const follower = new SensorRecorder({
      store,
      tanks: () => Promise.resolve([]),
      now: () => now,
      leader: { isLeader: () => false },
    });
    const parts = await keys();
    assert.equal(await follower.compact(), 0);
    assert.deepEqual(await keys(), parts);
    assert.equal(await recorder.compact(), 1);
    assert.deepEqual((await keys()).map((k) => k[5]), [0, 1]); // 6,000 samples: two blocks
    const after = await reader.series(IMEI, "fuelLitres", DAY1, DAY1 + 86_400_000);
    assert.deepEqual(after, before);
    // The columns hold the same samples (a range inside the day: [from, to)).
    const from = DAY1 + 1000 * 1000, to = DAY1 + 4500 * 1000;
    const c = await reader.seriesColumns(IMEI, "fuelLitres", from, to);
    const objects = await reader.series(IMEI, "fuelLitres", from, to);
    assert.equal(c.length, 3500);
    assert.deepEqual(
      Array.from({ length: c.length }, (_, i) => ({
        time: c.time[i],
        value: c.value[i],
        index: c.index[i],
        lat: c.lat[i],
        lng: c.lng[i],
      })),
      objects,
    );
    assert.equal(await recorder.compact(), 0);
    await recorder.stop();
  });
});

Deno.test("recorder: a live refuel is told once the level settled, not before", async () => {
  await withStore(async (_kv, store) => {
    const recorder = new SensorRecorder({
      store,
      tanks: () => Promise.resolve([]),
      tickMs: 10,
    });
    const reader = new SensorReadings(store, recorder);
    const levels = [...Array(20).fill(40), 55, 70, 85, ...Array(15).fill(85)];
    const send = (from: number, to: number) =>
      recorder.onCommitted({
        type: "positionsCommitted",
        imei: IMEI,
        userId: "u1",
        points: levels.slice(from, to).map((l, k) => fix(DAY1 + (from + k) * MIN, { fuel: l })),
      });
    const refuels = () => reader.events(IMEI, ["refuel"], DAY1, DAY1 + 86_400_000);
    recorder.start();
    try {
      send(0, 24); // the refuel and one minute after it: it may still be going on
      await new Promise((r) => setTimeout(r, 100));
      assert.deepEqual(await refuels(), []);
      send(24, levels.length); // 14 minutes more at 85 L
      await new Promise((r) => setTimeout(r, 100));
      const [e] = await refuels();
      assert.equal(e?.data.amount, 45, JSON.stringify(e));
      assert.equal(e.time, DAY1 + 19 * MIN);
    } finally {
      await recorder.stop();
    }
    assert.equal((await refuels()).length, 1, "told once, also after the last flush");
  });
});
