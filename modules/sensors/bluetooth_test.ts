/**
 * Bluetooth clock-in: a JT/T 808 BLE gateway's report (0x0900/0x53, as the simulator sends it)
 * decoded by the real decoder names the driver's badge; the recorder clocks the driver in when
 * the badge comes into range and out, at the last sighting, once no report saw it for 5 minutes.
 */
import assert from "node:assert/strict";
import { decodeFrame } from "../gateway/protocols/jt808/decoder.ts";
import { Jt808Splitter } from "../gateway/protocols/jt808/splitter.ts";
import { newSession } from "../gateway/protocols/types.ts";
import type { StoredPosition } from "../devices/model.ts";
import { jt808BleTags, simulatorBadge } from "../simulator/devices/jt808.ts";
import { sampleFix } from "../simulator/fix.ts";
import { SensorReadings } from "./reader.ts";
import { SensorRecorder } from "./recorder.ts";
import { SensorStore } from "./store.ts";
import { fixAt } from "./test_support.ts";
import { openTestKv } from "../../tests/helpers/test_kv.ts";

const IMEI = "864000000000022";
const T0 = Date.UTC(2026, 10, 3, 7, 0, 0);
const MIN = 60_000;

/** The attributes the gateway decodes from a BLE report seeing `macs` at `time`. */
function bleReport(time: number, macs: string[]): StoredPosition["attributes"] {
  const frame = jt808BleTags("012345678901", 9, sampleFix({ time: new Date(time) }), macs);
  const [raw] = new Jt808Splitter().push(frame);
  const m = decodeFrame(raw, newSession()).messages.find((x) => x.type === "position");
  assert.ok(m?.type === "position", "a BLE report with a fix is a position");
  assert.equal(m.position.time.getTime(), time);
  return m.position.attributes as StoredPosition["attributes"];
}

const point = (time: number, attributes: StoredPosition["attributes"]) =>
  fixAt(time, attributes, 30);

Deno.test("bluetooth clock-in: a badge in range clocks in, gone for 5 minutes clocks out", async () => {
  const dir = await Deno.makeTempDir();
  const kv = await openTestKv(`${dir}/kv.sqlite3`);
  try {
    const store = new SensorStore(kv);
    const recorder = new SensorRecorder({ store, tanks: () => Promise.resolve([]) });
    const reader = new SensorReadings(store, recorder);
    const badge = simulatorBadge(IMEI);
    assert.equal(bleReport(T0, [badge]).tag1Mac, badge.toLowerCase());
    const commit = (...points: StoredPosition[]) =>
      recorder.onCommitted({ type: "positionsCommitted", imei: IMEI, userId: "u1", points });
    commit(point(T0, bleReport(T0, [badge])));
    commit(point(T0 + MIN, {}), point(T0 + 2 * MIN, bleReport(T0 + 2 * MIN, [badge])));
    commit(point(T0 + 5 * MIN, {})); // 3 minutes unseen: still in the cab
    commit(point(T0 + 8 * MIN, {})); // 6 minutes: gone since its last sighting
    commit(point(T0 + 9 * MIN, bleReport(T0 + 9 * MIN, [badge]))); // back: a new shift
    await recorder.flush();
    const events = await reader.events(IMEI, ["bluetoothIn", "bluetoothOut"], T0, T0 + 3600_000);
    assert.deepEqual(events.map((e) => [e.kind, (e.time - T0) / MIN, e.data.cardNo]), [
      ["bluetoothIn", 0, badge],
      ["bluetoothOut", 2, badge],
      ["bluetoothIn", 9, badge],
    ]);
    assert.deepEqual((await reader.reports(IMEI)).events.sort(), ["bluetoothIn", "bluetoothOut"]);
    await recorder.stop();
  } finally {
    kv.close();
    await Deno.remove(dir, { recursive: true });
  }
});
