/**
 * "Locate now" on a JT/T 808 terminal over real TCP: a real server process, the simulator's
 * JT/T 808 device on the gateway's JT/T 808 port, and the command API. The platform sends
 * 0x8201 (position query); the terminal answers 0x0201 (the query's serial + its location);
 * the command turns "succeeded" with the location as its reply, and that location is stored
 * as a position of the device (playback shows it). Then a 0x8103 settles through the
 * terminal's 0x0001 general reply.
 */
import assert from "node:assert/strict";
import { PlatformApi } from "../../modules/simulator/api.ts";
import { Simulator } from "../../modules/simulator/simulator.ts";
import { startServer } from "../helpers/server.ts";

const ADMIN_PASSWORD = "Admin12345";

interface StatusRow {
  id: string;
  status: string;
  content: string;
  reply: string | null;
  phases: { status: string; at: string }[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `fn` until it gives a truthy value (15 s at most). */
async function waitFor<T>(what: string, fn: () => Promise<T | null | undefined | false>) {
  const until = Date.now() + 15_000;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

async function jt808Port(output: () => string): Promise<number> {
  return await waitFor("the gateway ports in the server log", () => {
    const m = output().match(/Device gateway: .*JT\/T 808 (\d+)/);
    return Promise.resolve(m ? Number(m[1]) : null);
  });
}

async function track(api: PlatformApi, imei: string) {
  const now = Date.now();
  const { points } = await api.playback(
    imei,
    new Date(now - 86_400_000),
    new Date(now + 86_400_000),
  );
  return points;
}

Deno.test({
  name:
    "commands: JT/T 808 over TCP — locate now 0x8201 → 0x0201 → succeeded, position stored; 0x8103 → 0x0001",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const server = await startServer({ ADMIN_PASSWORD });
    const heard: { text: string; reply: string | null }[] = [];
    let fleet: Simulator | null = null;
    try {
      fleet = new Simulator({
        protocol: "jt808",
        devices: 1,
        port: await jt808Port(server.output),
        imeiPrefix: "86400000",
        // One report after the login, then quiet: the only later position is the answer.
        intervalSeconds: 3600,
        alarmScale: 0,
        reconnectsPerHour: 0,
        onCommand: (_imei, text, reply) => heard.push({ text, reply }),
      });
      const [imei] = fleet.imeis;
      const api = await PlatformApi.login(server.url, "admin", ADMIN_PASSWORD);
      await api.importDevices(await api.currentUserId(), "JT808", [imei]);
      fleet.start();
      await waitFor("the first report", async () => {
        const { list } = await api.listDevices({});
        return list.find((d) => d.imei === imei)?.gpsTime;
      });
      const before = await track(api, imei);
      await sleep(1100); // the answer's fix falls on a later second than the report's

      const sent = await api.call<{ id: string; status: string; content: string }>(
        "/v3/new/command/sendInstruction",
        { imei, code: "locate", sendType: "online", params: {} },
      );
      assert.equal(sent.status, "sending");
      assert.equal(sent.content, "0x8201");
      const settled = (id: string) =>
        waitFor(`command ${id} to settle`, async () => {
          const { list } = await api.call<{ list: StatusRow[] }>("/v3/new/command/status", {
            imei,
            pageNum: 1,
            pageSize: 10,
          });
          const c = list.find((c) => c.id === id);
          return c && c.status !== "sending" && c;
        });
      const row = await settled(sent.id);
      assert.equal(row.status, "succeeded", JSON.stringify(row));
      assert.deepEqual(row.phases.map((p) => p.status), ["toBeSent", "sending", "succeeded"]);
      const m = row.reply?.match(
        /^Lat:(-?[\d.]+),Lon:(-?[\d.]+),Speed:[\d.]+km\/h,Course:\d+,Time:(\S+ \S+) UTC$/,
      );
      assert.ok(m, `reply: ${row.reply}`);
      const [, lat, lng, time] = m;
      // The terminal really was asked with 0x8201 and answered with its location.
      assert.equal(heard.length, 1);
      assert.equal(heard[0].text, "position query");
      assert.equal(heard[0].reply, `location ${lat},${lng}`);

      // The answer's location is a stored position, newer than the report before the query.
      const fixTime = Date.parse(`${time.replace(" ", "T")}Z`);
      assert.ok(!before.some((p) => Date.parse(p.gpsTime) === fixTime));
      const after = await waitFor("the answered position in playback", async () => {
        const points = await track(api, imei);
        return points.some((p) => Date.parse(p.gpsTime) === fixTime) && points;
      });
      const point = after.find((p) => Date.parse(p.gpsTime) === fixTime)!;
      assert.ok(Math.abs(point.lat - Number(lat)) < 1e-6, `${point.lat} vs ${lat}`);
      assert.ok(Math.abs(point.lng - Number(lng)) < 1e-6, `${point.lng} vs ${lng}`);
      assert.equal(after.length, before.length + 1);

      // The 0x0001 general reply settles the other JT/T 808 commands: 0x8103 report interval.
      const interval = await api.call<{ id: string; content: string }>(
        "/v3/new/command/sendInstruction",
        { imei, code: "reportInterval", sendType: "online", params: { seconds: 60 } },
      );
      assert.equal(interval.content, "0x8103 0x0029=60");
      const set = await settled(interval.id);
      assert.equal(set.status, "succeeded", JSON.stringify(set));
      assert.equal(set.reply, "0x8103 success");
      assert.equal(heard.at(-1)?.text, "set parameters 000000290400" + "00003c");
    } finally {
      await fleet?.stop();
      await server.stop();
    }
  },
});
