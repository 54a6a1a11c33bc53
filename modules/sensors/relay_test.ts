/**
 * Sensor readings in cluster mode (issue 23): two instances' recorders on one store, each with
 * its own real NATS link (a throwaway nats-server) and session registry. Readings wait up to ten
 * minutes in the memory of the instance holding the device; a read on the other instance gets
 * them from there, and a device's readings are appended when its connection closes.
 */
import assert from "node:assert/strict";
import { openTestKv } from "../../tests/helpers/test_kv.ts";
import { testNats } from "../../tests/helpers/nats.ts";
import { NatsLink } from "../../lib/cluster/nats_link.ts";
import { SessionRegistry } from "../gateway/link/sessions.ts";
import { SessionStore } from "../gateway/link/store_sessions.ts";
import { SensorRecorder } from "./recorder.ts";
import { SensorReadings } from "./reader.ts";
import { SensorRelay } from "./relay.ts";
import { SensorStore } from "./store.ts";
import { dayOf } from "./codec.ts";

const IMEI = "359710049870011";
const MIN = 60_000;

async function instance(kv: Deno.Kv, natsUrl: string, name: string) {
  const instanceId = `${name}-${crypto.randomUUID().slice(0, 8)}`;
  const link = await NatsLink.connect(natsUrl);
  const sessions = new SessionRegistry(new SessionStore(kv), { instanceId, link });
  sessions.start(() => ({ closed: true }));
  const store = new SensorStore(kv);
  const recorder = new SensorRecorder({
    store,
    tanks: () => Promise.resolve([]),
    appendOnClose: true,
  });
  const relay = new SensorRelay(recorder, link, sessions);
  relay.start();
  const reader = new SensorReadings(store, recorder, relay);
  const close = async () => {
    relay.stop();
    await recorder.stop();
    await sessions.stop();
    await link.close();
  };
  return { instanceId, sessions, recorder, relay, reader, close };
}

type Instance = Awaited<ReturnType<typeof instance>>;

const connection = (i: Instance, connected: boolean) => {
  i.recorder.onConnection({ type: "connection", imei: IMEI, userId: "u1", connected });
  if (connected) i.sessions.claimed(IMEI);
  else i.sessions.released(IMEI);
  return i.sessions.flush();
};

const temperature = (i: Instance, time: number, value: number) =>
  i.recorder.onStatusReported({
    type: "statusReported",
    imei: IMEI,
    userId: "u1",
    time,
    battery: null,
    attributes: { temp1: value },
    alarm: null,
    lat: 22.5,
    lng: 114,
  });

Deno.test({
  name: "sensors in cluster mode: a read on another instance gets the holder's waiting readings",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const kv = await openTestKv();
    const nats = await testNats();
    const a = await instance(kv, nats.url, "a");
    const b = await instance(kv, nats.url, "b");
    try {
      for (const i of [a, b, a, b]) await i.sessions.beat(); // each sees the other live
      await connection(a, true);
      const t0 = Date.now() - 10 * MIN;
      for (let k = 0; k < 5; k++) temperature(a, t0 + k * MIN, 4 + k);
      const values = async (i: Instance) =>
        (await i.reader.series(IMEI, "temperature", t0, t0 + 10 * MIN)).map((s) => s.value);

      // Nothing appended yet: the readings wait in A's memory, and B reads them from there.
      assert.deepEqual(await values(a), [4, 5, 6, 7, 8]);
      assert.deepEqual(await values(b), [4, 5, 6, 7, 8]);
      assert.equal(b.relay.stats.asked, 1);
      const columns = await b.reader.seriesColumns(IMEI, "temperature", t0, t0 + 10 * MIN);
      assert.equal(columns.time.length, 5);
      assert.ok((await b.reader.reports(IMEI)).series.includes("temperature"));

      // The device moves to B: A appends its readings as the connection closes there.
      await connection(a, false);
      const stored = () =>
        new SensorStore(kv).series(
          IMEI,
          "temperature",
          dayOf(t0),
          dayOf(t0 + 10 * MIN),
          t0,
          t0 + 10 * MIN,
        );
      for (const end = Date.now() + 5000; (await stored()).length < 5;) {
        assert.ok(Date.now() < end, "A appended the device's readings when its connection closed");
        await new Promise((r) => setTimeout(r, 20));
      }
      assert.deepEqual(a.recorder.pendingSeries(IMEI, "temperature", t0, t0 + 10 * MIN), []);
      await connection(b, true);
      temperature(b, t0 + 6 * MIN, 10);
      assert.deepEqual(await values(a), [4, 5, 6, 7, 8, 10], "A asks B now");
      assert.deepEqual(await values(b), [4, 5, 6, 7, 8, 10]);
    } finally {
      await a.close();
      await b.close();
      kv.close();
      await nats.stop();
    }
  },
});
