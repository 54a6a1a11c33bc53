/**
 * The simulator against the real product: a server process, three simulated devices per
 * protocol reporting every second for about five seconds, then the API must show every
 * device's status, latest position and track, and commands sent online must come back
 * answered by the simulated devices (GT06, JT/T 808, H02; OsmAnd gets it in its next answer).
 */
import assert from "node:assert/strict";
import type { ProtocolName } from "../devices/models.ts";
import { freePort, startServer } from "../../tests/helpers/server.ts";
import { MODEL_FOR, PlatformApi } from "./api.ts";
import { distanceMetres } from "./routes.ts";
import { DEFAULT_IMEI_PREFIX, Simulator } from "./simulator.ts";

const PASSWORD = "Admin12345";
const PROTOCOLS: ProtocolName[] = ["gt06", "jt808", "h02", "osmand"];
/** What each simulated device answers to STATUS#. */
const EXPECTED_REPLY: Record<ProtocolName, RegExp> = {
  gt06: /^Battery:\d+%,GPRS:Link Up,.*ACC:(ON|OFF)/,
  jt808: /^0x8300 success$/,
  h02: /^STATUS,OK$/,
  osmand: /^delivered$/,
};

async function waitFor<T>(
  what: string,
  ms: number,
  probe: () => Promise<T | undefined> | T | undefined,
) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

Deno.test({
  name: "simulator: devices of every protocol report, show up in the API, and answer commands",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const ports = {
      gt06: freePort(),
      jt808: freePort(),
      h02: freePort(),
      osmand: freePort(),
    };
    const server = await startServer({
      ADMIN_PASSWORD: PASSWORD,
      GT06_PORT: String(ports.gt06),
      JT808_PORT: String(ports.jt808),
      H02_PORT: String(ports.h02),
      OSMAND_PORT: String(ports.osmand),
    });
    const sims = new Map<ProtocolName, Simulator>();
    const seen: { imei: string; text: string; reply: string | null }[] = [];
    try {
      const api = await PlatformApi.login(server.url, "admin", PASSWORD);
      const userId = await api.currentUserId();
      const began = Date.now();
      // One prefix, consecutive indices: JT/T 808 terminal numbers are then mostly zeros
      // (000000000031…), which the gateway must still match to the IMEI.
      PROTOCOLS.forEach((protocol, i) =>
        sims.set(
          protocol,
          new Simulator({
            protocol,
            devices: 3,
            port: ports[protocol],
            intervalSeconds: 1,
            imeiPrefix: DEFAULT_IMEI_PREFIX,
            startIndex: 3 * i,
            seed: 1,
            alarmScale: 0,
            reconnectsPerHour: 0,
            onProblem: (imei, m) => console.warn(`  ${imei}: ${m}`),
            onCommand: (imei, text, reply) => seen.push({ imei, text, reply }),
          }),
        )
      );
      for (const [protocol, sim] of sims) {
        const r = await api.importDevices(userId, MODEL_FOR[protocol], sim.imeis);
        assert.equal(r.imported, 3, `${protocol}: ${JSON.stringify(r)}`);
      }
      for (const sim of sims.values()) sim.start();
      await waitFor(
        "every device to log in",
        10_000,
        () => [...sims.values()].every((s) => s.stats.connected === 3) || undefined,
      );

      // A dead zone: the last GT06 device drops off and must log in again by itself.
      const gt06 = sims.get("gt06")!;
      gt06.devices[2].dropConnection(1000);

      const commands = new Map<ProtocolName, string>();
      for (const [protocol, sim] of sims) {
        const sent = await api.sendCommand(sim.imeis[0], "STATUS#", "online");
        commands.set(protocol, sent.id);
      }
      for (const [protocol, sim] of sims) {
        const row = await waitFor(`${protocol} command reply`, 10_000, async () => {
          const { list } = await api.listCommands(sim.imeis[0]);
          const c = list.find((x) => x.id === commands.get(protocol));
          return c && c.status !== "sending" && c.status !== "toBeSent" ? c : undefined;
        });
        assert.equal(row.status, "succeeded", `${protocol}: ${JSON.stringify(row)}`);
        assert.match(row.reply ?? "", EXPECTED_REPLY[protocol], protocol);
        const got = seen.find((s) => s.imei === sim.imeis[0]);
        assert.ok(got, `${protocol}: the simulated device saw the command`);
        if (protocol !== "osmand" && protocol !== "jt808") assert.equal(got.reply, row.reply);
      }

      // Activation is stamped once, by the first data; later reports must not move it.
      const activated = new Map(
        (await api.listDevices({ pageSize: 100 })).list.map((d) => [d.imei, d.activationTime]),
      );

      const elapsed = Date.now() - began;
      if (elapsed < 5_500) await new Promise((r) => setTimeout(r, 5_500 - elapsed));
      await waitFor(
        "the dropped device to come back",
        8_000,
        () => gt06.devices[2].online || undefined,
      );
      assert.ok(gt06.stats.reconnects >= 1, "reconnected after the drop");
      for (const sim of sims.values()) await sim.stop();
      const ended = Date.now();

      const { list } = await api.listDevices({ pageSize: 100 });
      const rows = new Map(list.map((d) => [d.imei, d]));
      for (const [protocol, sim] of sims) {
        for (const imei of sim.imeis) {
          const d = rows.get(imei);
          assert.ok(d, `${protocol} ${imei} listed`);
          assert.equal(d.mcType, MODEL_FOR[protocol]);
          assert.ok(["moving", "idling", "stopped"].includes(d.status), `${imei}: ${d.status}`);
          assert.ok(d.hbTime, `${imei} has a heartbeat time`);
          assert.ok(d.activationTime, `${imei} activated`);
          assert.equal(d.activationTime, activated.get(imei), `${imei}: activation time kept`);
          assert.ok(d.position, `${imei} has a latest position`);
          assert.ok(
            distanceMetres({ lat: 22.54, lng: 114.05 }, {
              lat: d.position.lat,
              lng: d.position.lng,
            }) <
              15_000,
            `${imei} is around Shenzhen`,
          );

          const { points } = await api.playback(
            imei,
            new Date(began - 60_000),
            new Date(ended + 60_000),
          );
          assert.ok(points.length >= 1, `${protocol} ${imei}: playback has points`);
          const times = points.map((p) => Date.parse(p.gpsTime));
          for (let i = 1; i < times.length; i++) {
            // Two fixes in one second (a report and an alarm, protocols with whole seconds)
            // are both kept, so times only never go back.
            assert.ok(times[i] >= times[i - 1], `${imei}: points in time order`);
          }
          assert.ok(times[0] >= began - 2_000 && times.at(-1)! <= ended + 1_000, `${imei}: times`);
        }
      }
      // Moving vehicles report every second: a GT06/JT808/H02/OsmAnd track of a few points.
      const total = await Promise.all(
        [...sims.values()].flatMap((s) =>
          s.imeis.map(async (imei) =>
            (await api.playback(imei, new Date(began - 60_000), new Date(ended + 60_000))).points
              .length
          )
        ),
      );
      assert.ok(total.reduce((a, b) => a + b, 0) >= 24, `points per device: ${total}`);
    } finally {
      for (const sim of sims.values()) await sim.stop();
      await server.stop();
    }
  },
});
