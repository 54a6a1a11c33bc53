/**
 * Device sessions and commands across two instances in one process (issue 23): two compose()
 * instances in cluster mode sharing one store (one Deno KV file opened twice) and a real
 * nats-server (a NatsLink each, closed to kill an instance's messaging), each with its gateway
 * listening on real ports, and a GT06 device on real sockets.
 * The multi-process version (PostgreSQL, NATS, SIGKILL) is tests/cluster/cluster_test.ts.
 */
import assert from "node:assert/strict";
import { loadConfig } from "../../../lib/config.ts";
import { compose, type Services } from "../../../app/compose.ts";
import { ALWAYS_LEADER } from "../../../lib/cluster/local.ts";
import { NatsLink } from "../../../lib/cluster/nats_link.ts";
import type { Cluster } from "../../../lib/cluster/types.ts";
import { testNats } from "../../../tests/helpers/nats.ts";
import { ensureAdministrator } from "../../accounts/bootstrap.ts";
import { type GatewayHandle, startGateway } from "../gateway.ts";
import { freePort } from "../../../tests/helpers/server.ts";
import { RawDevice } from "../../../tests/helpers/raw_device.ts";
import {
  gt06CommandReply,
  gt06Login,
  Gt06StreamReader,
  type Gt06StreamReader as Reader,
  parseGt06Command,
} from "../../simulator/devices/gt06.ts";
import {
  JT,
  jt808Auth,
  jt808Register,
  type Jt808ServerFrame,
  Jt808StreamReader,
} from "../../simulator/devices/jt808.ts";
import { latin1Text } from "../../simulator/fix.ts";
import type { Device } from "../../devices/model.ts";
import type { CommandRecord } from "../../commands/types.ts";
import type { SessionRegistry } from "./sessions.ts";
import { openTestKv } from "../../../tests/helpers/test_kv.ts";

const IMEI = "359710049230011";
const JT_IMEI = "359710049230029";
const ADMIN_PASSWORD = "Admin12345";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Instance {
  id: string;
  s: Services;
  kv: Deno.Kv;
  link: NatsLink;
  sessions: SessionRegistry;
  gateway: GatewayHandle;
}

async function startInstance(
  id: string,
  dir: string,
  natsUrl: string,
  takeoverSeconds: number,
): Promise<Instance> {
  const config = loadConfig({
    DATA_DIR: dir,
    ADMIN_PASSWORD,
    HOSTNAME: "127.0.0.1",
    GT06_PORT: String(freePort()),
    JT808_PORT: String(freePort()),
    H02_PORT: String(freePort()),
    OSMAND_PORT: String(freePort()),
    GATEWAY_WORKERS: "0",
    DEVICE_TAKEOVER_SECONDS: String(takeoverSeconds),
  });
  const link = await NatsLink.connect(natsUrl);
  const cluster: Cluster = { mode: "cluster", instanceId: id, link, leader: ALWAYS_LEADER };
  const kv = await openTestKv(`${dir}/tracking.kv`);
  const s = await compose(kv, config, cluster);
  const gateway = await startGateway({ ...s, config, maxConnections: 100 });
  return { id, s, kv, link, sessions: s.deviceSessions!, gateway };
}

/** A GT06 device logged in on an instance's port (the 10-byte login answer read). */
async function connect(inst: Instance): Promise<RawDevice<ReturnType<Reader["push"]>[number]>> {
  const d = await RawDevice.open(inst.gateway.ports.gt06, new Gt06StreamReader());
  await d.send(gt06Login(IMEI, 1));
  return d;
}

/** A strict JT/T 808 terminal on an instance's port. */
type Terminal = RawDevice<Jt808ServerFrame>;
const openTerminal = (inst: Instance): Promise<Terminal> =>
  RawDevice.open(inst.gateway.ports.jt808, new Jt808StreamReader());
const phone = JT_IMEI.slice(-12);

/** Registers (0x0100) and returns the auth code of the 0x8100. */
async function register(d: Terminal): Promise<string> {
  await d.send(jt808Register(phone, 1));
  const f = await d.frame();
  assert.equal(f.msgId, JT.REGISTER_REPLY);
  return latin1Text(f.body.subarray(3));
}

/** Authenticates (0x0102); the result byte of the platform's general reply (0: accepted). */
async function authenticate(d: Terminal, code: string, serial: number): Promise<number> {
  await d.send(jt808Auth(phone, serial, code));
  const f = await d.frame();
  assert.equal(f.msgId, JT.PLATFORM_REPLY);
  return f.body[4];
}

async function waitFor<T>(
  what: string,
  fn: () => Promise<T | null | false> | T | null | false,
  ms = 5000,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/** Reads the command the device got, answers it, and returns its text. */
async function answerCommand(d: RawDevice<ReturnType<Reader["push"]>[number]>, reply: string) {
  for (;;) {
    const frame = await d.frame();
    if (frame.type !== 0x80) continue; // login / heartbeat answers
    const command = parseGt06Command(frame.content)!;
    await d.send(gt06CommandReply(command.serverFlag, reply, 30));
    return command.text;
  }
}

async function settled(inst: Instance, id: string): Promise<CommandRecord> {
  return await waitFor(`command ${id} settled`, async () => {
    const c = await inst.s.commands.record(id);
    return c && c.status !== "sending" && c.status !== "toBeSent" ? c : null;
  });
}

Deno.test({
  name: "cluster sessions: commands reach the instance holding the device; take-over and fail-over",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async (t) => {
    const dir = await Deno.makeTempDir();
    const nats = await testNats();
    // Unique per run: the test task's nats-server is shared with other test files.
    const run = crypto.randomUUID().slice(0, 8);
    const A = `inst-a-${run}`, B = `inst-b-${run}`;
    // A: the second-login rule at 60 s; B: at 2 s, so a silent device may move to B quickly.
    const a = await startInstance(A, dir, nats.url, 60);
    await ensureAdministrator(a.s.accountStore, ADMIN_PASSWORD);
    const adminId = (await a.s.accountStore.findIdByLogin("admin"))!;
    const device: Device = {
      imei: IMEI,
      mcType: "GT06N",
      userId: adminId,
      deviceName: "cluster",
      sim: "",
      enabled: true,
      createdAt: new Date().toISOString(),
      activationTime: null,
      expiration: null,
      userExpiration: null,
      timezoneOffsetMinutes: null,
      activationMode: "auto",
      activationAllowed: false,
      groupId: null,
    };
    await a.s.directory.insertMany([device, { ...device, imei: JT_IMEI, mcType: "JT808" }]);
    const b = await startInstance(B, dir, nats.url, 2);
    const sender = { id: adminId, account: "admin" };
    const both = [a, b];
    const devices: RawDevice<unknown>[] = [];
    try {
      // Each sees the other's heartbeat.
      for (const i of both) await i.sessions.beat();
      for (const i of both) await i.sessions.beat();
      assert.ok(a.sessions.instanceLive(B) && b.sessions.instanceLive(A));

      const onA = await connect(a);
      devices.push(onA);
      await t.step(
        "a command sent through B reaches the device on A; its reply is recorded",
        async () => {
          await waitFor(
            "B sees the device on A",
            () => b.s.deviceSessions!.holderElsewhere(IMEI).then((h) => h === A),
          );
          const sent = await b.s.commands.send(
            { device, content: "WHERE#", sendType: "online", replace: false },
            sender,
          );
          assert.equal(sent.status, "sending");
          assert.equal(sent.sentBy, A);
          // B's sweep leaves it to A, which is alive and times it out itself.
          assert.equal(await b.s.commands.sweep(Date.now() + 61_000), 0);
          assert.equal(await answerCommand(onA, "Lat:22.5,Lon:114.0"), "WHERE#");
          const done = await settled(b, sent.id);
          assert.equal(done.status, "succeeded");
          assert.equal(done.reply, "Lat:22.5,Lon:114.0");
        },
      );

      await t.step(
        "a login on B while A heard the device within B's takeover window is refused",
        async () => {
          const refused = await connect(b);
          await refused.waitClosed();
          await refused.done();
          assert.equal(onA.closedByServer, false);
          assert.equal(await b.s.deviceSessions!.holderElsewhere(IMEI), A);
        },
      );

      await t.step(
        "after that window, the device reconnecting to B closes its session on A",
        async () => {
          await sleep(2_100);
          const d = await connect(b);
          devices.push(d);
          await onA.waitClosed();
          await b.sessions.flush();
          await waitFor(
            "A sees the device on B",
            () => a.sessions.holderElsewhere(IMEI).then((h) => h === B),
          );
          assert.equal(a.s.connections.get(IMEI), undefined);
          assert.ok(b.s.connections.get(IMEI));
        },
      );

      await t.step(
        "JT/T 808: an authentication on A closes the terminal's connection on B at once",
        async () => {
          const onB = await openTerminal(b);
          devices.push(onB);
          const code = await register(onB);
          assert.equal(await authenticate(onB, code, 2), 0);
          await b.sessions.flush();
          await waitFor(
            "A sees the terminal on B",
            () => a.sessions.holderElsewhere(JT_IMEI).then((h) => h === B),
          );
          // Heard just now, but the auth code proves the new connection (A's rule is 60 s).
          const onA = await openTerminal(a);
          devices.push(onA);
          assert.equal(await authenticate(onA, code, 1), 0);
          await onB.waitClosed();
          assert.ok(a.s.connections.get(JT_IMEI));

          // A registration proves nothing: on B it is refused while A's authenticated
          // connection is active, and A's connection stays.
          await a.sessions.flush();
          await waitFor(
            "B sees the terminal on A",
            () => b.sessions.holderElsewhere(JT_IMEI).then((h) => h === A),
          );
          const intruder = await openTerminal(b);
          devices.push(intruder);
          await intruder.send(jt808Register(phone, 3));
          const refused = await intruder.frame();
          assert.equal(refused.msgId, JT.REGISTER_REPLY);
          assert.notEqual(refused.body[2], 0, "registration refused");
          assert.equal(onA.closedByServer, false);
          assert.ok(a.s.connections.get(JT_IMEI));
        },
      );

      await t.step(
        "B killed: its session blocks no reconnect on A once silent 10 s, though A's rule is 60 s",
        async () => {
          // A command through A that B writes to the device, which never answers.
          const unanswered = await a.s.commands.send(
            { device, content: "RESET#", sendType: "online", replace: false },
            sender,
          );
          assert.equal(unanswered.sentBy, B);
          // B falls silent with the device's socket still open, as a frozen or killed host's.
          await b.link.close();
          await b.sessions.stop(false);
          assert.equal(
            await a.sessions.holderElsewhere(IMEI),
            B,
            "B's heartbeat is still fresh",
          );
          assert.equal(await a.s.commands.sweep(Date.now() + 61_000), 0, "B may still time it out");
          await waitFor("B's heartbeat goes stale", async () => {
            await a.sessions.beat();
            return !a.sessions.instanceLive(B);
          }, 15_000);
          assert.equal(await a.sessions.holderElsewhere(IMEI), null);
          // A's sweep times out what the gone instance left "sending".
          assert.equal(await a.s.commands.sweep(Date.now() + 61_000), 1);
          assert.equal((await a.s.commands.record(unanswered.id))?.status, "timeout");
          // An offline command sent after the fail-over waits in the store…
          const queued = await a.s.commands.send(
            { device, content: "STATUS#", sendType: "offline", replace: false },
            sender,
          );
          assert.equal(queued.status, "toBeSent");
          // …and goes out when the device logs in on A (accepted: B's session counts no more).
          const back = await connect(a);
          devices.push(back);
          assert.equal(await answerCommand(back, "Battery:90%"), "STATUS#");
          const done = await settled(a, queued.id);
          assert.equal(done.status, "succeeded");
          assert.equal(done.reply, "Battery:90%");
          assert.equal(done.sentBy, A);
        },
      );
    } finally {
      for (const d of devices) await d.done().catch(() => {});
      for (const i of both) {
        await i.gateway.close();
        i.s.commands.stop();
        await i.s.motion.close();
        await i.s.sensorRecorder.stop();
        i.kv.close();
      }
      for (const i of both) await i.link.close();
      await nats.stop();
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    }
  },
});
