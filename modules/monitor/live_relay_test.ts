/**
 * Live events and device records across two instances in one process (issue 23): two
 * compose() instances in cluster mode on one store (one Deno KV file opened twice; one
 * PostgreSQL database in the test task's PostgreSQL pass) and a real
 * nats-server (a NatsLink each), each with its HTTP app and gateway on real ports. A GT06
 * device on instance 1's port; browsers' streams (GET /v3/new/monitor/stream) on instance 2.
 * The multi-process version (PostgreSQL, HAProxy) is tests/cluster/cluster_test.ts.
 */
import assert from "node:assert/strict";
import { createApp } from "../../app/app.ts";
import { compose, type Services } from "../../app/compose.ts";
import { loadConfig } from "../../lib/config.ts";
import { ALWAYS_LEADER } from "../../lib/cluster/local.ts";
import { NatsLink } from "../../lib/cluster/nats_link.ts";
import type { Cluster } from "../../lib/cluster/types.ts";
import { testNats } from "../../tests/helpers/nats.ts";
import { openTestKv } from "../../tests/helpers/test_kv.ts";
import { RawDevice } from "../../tests/helpers/raw_device.ts";
import { freePort } from "../../tests/helpers/server.ts";
import { ensureAdministrator } from "../accounts/bootstrap.ts";
import { type GatewayHandle, startGateway } from "../gateway/gateway.ts";
import { gt06Alarm, gt06Location, gt06Login, Gt06StreamReader } from "../simulator/devices/gt06.ts";
import { sampleFix } from "../simulator/fix.ts";
import { STATUS_INDEX } from "./objects.ts";

const ADMIN_PASSWORD = "Admin12345";
const PASSWORD = "Passw0rd11";
const IMEI = "359710049230102";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An API answer; its JSON as Response.json() gives it. */
type Answer = { status: number; json: Awaited<ReturnType<Response["json"]>> };

interface Instance {
  s: Services;
  kv: Deno.Kv;
  link: NatsLink;
  gateway: GatewayHandle;
  call(path: string, body?: unknown, token?: string): Promise<Answer>;
  stream(token: string, query?: string): Promise<SseReader>;
}

async function startInstance(id: string, dir: string, natsUrl: string): Promise<Instance> {
  const config = loadConfig({
    DATA_DIR: dir,
    ADMIN_PASSWORD,
    CAPTCHA: "off",
    HOSTNAME: "127.0.0.1",
    GT06_PORT: String(freePort()),
    JT808_PORT: String(freePort()),
    H02_PORT: String(freePort()),
    OSMAND_PORT: String(freePort()),
    GATEWAY_WORKERS: "0",
  });
  const link = await NatsLink.connect(natsUrl);
  const cluster: Cluster = { mode: "cluster", instanceId: id, link, leader: ALWAYS_LEADER };
  // One store for both: a Deno KV file opened twice, or (the PostgreSQL pass) one database.
  const kv = await openTestKv(`${dir}/tracking.kv`);
  const s = await compose(kv, config, cluster);
  await ensureAdministrator(s.accountStore, ADMIN_PASSWORD);
  const app = createApp(s);
  const gateway = await startGateway({ ...s, config, maxConnections: 100 });
  const call = async (path: string, body?: unknown, token?: string) => {
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (token) headers.authorization = `Bearer ${token}`;
    const res = await app.request(path, {
      method: body === undefined ? "GET" : "POST",
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, json: await res.json() };
  };
  const stream = async (token: string, query = "") => {
    const res = await app.request(`/v3/new/monitor/stream${query}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(res.status, 200);
    return new SseReader(res);
  };
  return { s, kv, link, gateway, call, stream };
}

async function stopInstance(i: Instance): Promise<void> {
  await i.gateway.close();
  i.s.monitor.streams.closeAll();
  i.s.commands.stop();
  await i.s.motion.close();
  await i.s.sensorRecorder.stop();
  await i.s.alertAddresses.idle();
  i.kv.close();
  await i.link.close();
}

/** Reads a stream's `pos` rows in the background, each with the time it arrived. */
class SseReader {
  rows: { imei: string; lat: number; status: number; at: number }[] = [];
  /** Resolves at the server's ": connected": every instance's events reach the stream now. */
  connected: Promise<void>;
  private markConnected = () => {};
  private reader: ReadableStreamDefaultReader<string>;
  private done: Promise<void>;

  constructor(res: Response) {
    this.connected = new Promise((r) => this.markConnected = r);
    this.reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    this.done = this.pump();
  }

  private async pump() {
    let buf = "";
    for (;;) {
      const r = await this.reader.read().catch(() => null);
      if (!r || r.done) return;
      buf += r.value;
      let i;
      while ((i = buf.indexOf("\n\n")) >= 0) {
        const block = buf.slice(0, i);
        buf = buf.slice(i + 2);
        if (/^: connected$/m.test(block)) this.markConnected();
        if (/^event: pos$/m.test(block)) {
          const data = /^data: (.*)$/m.exec(block)![1];
          for (const row of JSON.parse(data)) {
            this.rows.push({ imei: row[0], lat: row[1], status: row[6], at: Date.now() });
          }
        }
      }
    }
  }

  /** The first row at `lat` (a fix sent once), waiting up to `ms`. */
  async row(lat: number, ms: number) {
    const end = Date.now() + ms;
    while (Date.now() < end) {
      const hit = this.rows.find((r) => r.lat === lat);
      if (hit) return hit;
      await sleep(10);
    }
    return null;
  }

  async close() {
    await this.reader.cancel().catch(() => {});
    await this.done;
  }
}

async function waitFor<T>(
  what: string,
  fn: () => T | null | undefined | Promise<T | null>,
  ms: number,
) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

const ok = (r: Answer) => {
  assert.equal(r.json?.code, 10000, JSON.stringify(r.json));
  return r.json.data;
};

Deno.test({
  name: "cluster: device records and live events reach the other instance (issue 23)",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const testStart = Date.now();
    const nats = await testNats();
    const dir = await Deno.makeTempDir({ prefix: "tp-live-" });
    const one = await startInstance("one", dir, nats.url);
    const two = await startInstance("two", dir, nats.url);
    const streams: SseReader[] = [];
    let device: RawDevice<unknown> | null = null;
    try {
      const admin = ok(
        await one.call("/v3/new/account/login", { account: "admin", password: ADMIN_PASSWORD }),
      ).token;
      const adminId = (await one.s.accountStore.findIdByLogin("admin"))!;
      const add = async (account: string, parentId: string, type: number) =>
        ok(
          await one.call("/v3/new/account/add", {
            account,
            nickName: account,
            password: PASSWORD,
            accountType: type,
            parentId,
          }, admin),
        ).id as string;
      const distA = await add("lr_dist_a", adminId, 8);
      const distB = await add("lr_dist_b", adminId, 8);
      const owner = await add("lr_owner", distA, 9);
      // Sessions issued by instance 2 (the shared store's signing secret and session records).
      const loginOnTwo = async (account: string) =>
        ok(await two.call("/v3/new/account/login", { account, password: PASSWORD })).token;
      const [tokenA, tokenB] = [await loginOnTwo("lr_dist_a"), await loginOnTwo("lr_dist_b")];

      await t.step(
        "a device imported through instance 1 is known to instance 2 within 5 s",
        async () => {
          const started = Date.now();
          const r = ok(
            await one.call("/v3/new/newEquipment/importEquipment", {
              userId: owner,
              mcType: "GT06N",
              imeis: [IMEI],
            }, admin),
          );
          assert.equal(r.succeeded, 1);
          await waitFor("instance 2's directory", () => two.s.directory.get(IMEI), 5000);
          assert.ok(Date.now() - started < 5000);
          assert.equal(two.s.directory.get(IMEI)!.userId, owner);
        },
      );

      await t.step(
        "a live fix on instance 1 reaches a subtree's stream on instance 2 within 2 s, not a sibling's",
        async () => {
          const [onA, onB] = [await two.stream(tokenA), await two.stream(tokenB)];
          streams.push(onA, onB);
          // "connected" only once each viewer's subscription is in place: nothing is missed.
          await Promise.all([onA.connected, onB.connected]);
          assert.equal(two.s.monitor.relayStats().viewers, 2);
          device = await RawDevice.open(one.gateway.ports.gt06, new Gt06StreamReader());
          await device.send(gt06Login(IMEI, 1));
          await device.frame();
          const sentAt = Date.now();
          await device.send(gt06Location(sampleFix({ time: new Date(), latitude: 22.5431 }), 2));
          const row = await onA.row(22.5431, 2000);
          assert.ok(row, "the fix reached distributor A's stream on instance 2");
          assert.equal(row.imei, IMEI);
          assert.ok(row.at - sentAt < 2000, `${row.at - sentAt} ms`);
          // The state came with the event: the stream says "moving"/"stopped", not offline.
          assert.notEqual(row.status, STATUS_INDEX.get("offline"), "status from the relayed state");
          await sleep(500);
          assert.equal(onB.rows.length, 0, "a sibling subtree's viewer got nothing");
          // Instance 2's map objects follow the device held by instance 1 as well.
          assert.equal(two.s.directory.state(IMEI)?.position?.lat, 22.5431);
        },
      );

      await t.step(
        "a stream on the instance that took the fix gets it from its bus only",
        async () => {
          const token = ok(
            await one.call("/v3/new/account/login", { account: "lr_dist_a", password: PASSWORD }),
          ).token;
          const local = await one.stream(token);
          streams.push(local);
          await local.connected;
          assert.equal(one.s.monitor.relayStats().viewers, 1);
          const before = [
            one.s.monitor.relayStats().delivered,
            two.s.monitor.relayStats().delivered,
          ];
          await device!.send(gt06Location(sampleFix({ time: new Date(), latitude: 22.5432 }), 3));
          assert.ok(await local.row(22.5432, 2000));
          assert.ok(await streams[0].row(22.5432, 2000));
          await sleep(300);
          assert.equal(local.rows.filter((r) => r.lat === 22.5432).length, 1);
          // Instance 1 published it and skipped its own message; instance 2 relayed it.
          assert.equal(one.s.monitor.relayStats().delivered, before[0]);
          assert.equal(two.s.monitor.relayStats().delivered, before[1] + 1);
        },
      );

      await t.step("moving the owner's account re-routes its live events", async () => {
        const [onA, onB] = [streams[0], streams[1]];
        const changes = two.s.monitor.relayStats().accountChanges;
        ok(await one.call("/v3/new/account/move", { ids: [owner], targetId: distB }, admin));
        // The move's sync: instance 2 re-reads paths and renews filters.
        await waitFor(
          "2 re-routed",
          () => two.s.monitor.relayStats().accountChanges > changes,
          5000,
        );
        await device!.send(gt06Location(sampleFix({ time: new Date(), latitude: 22.5433 }), 4));
        assert.ok(await onB.row(22.5433, 2000), "the new parent's viewer sees the device");
        await sleep(300);
        assert.equal(onA.rows.filter((r) => r.lat === 22.5433).length, 0, "the old parent's not");
      });

      await t.step(
        "a track read on instance 2 finds instance 1's journal, then its blocks",
        async () => {
          const [from, to] = [testStart - 60_000, Date.now() + 60_000];
          const points = async (i: Instance) => {
            const parts = [...await i.s.positions.rangeJsonParts(IMEI, from, to)];
            const decoder = new TextDecoder();
            return (JSON.parse(`[${parts.map((p) => decoder.decode(p)).join(",")}]`) as unknown[])
              .length;
          };
          await waitFor("1's fixes in 2's track", async () => (await points(two)) === 3, 2000);
          // Instance 1 packs its journal into blocks (the chunks go); 2 reads them from blocks.
          assert.ok(await one.s.positions.compactAll(Date.now()) >= 3);
          await waitFor("the blocks in 2's track", async () => (await points(two)) === 3, 2000);
          assert.equal(await points(one), 3);
        },
      );

      await t.step("transfers and edits reach instance 2's directory", async () => {
        ok(
          await one.call("/v3/new/newEquipment/transferEquipment", {
            imeis: [IMEI],
            targetUserId: distA,
          }, admin),
        );
        await waitFor(
          "the new owner on instance 2",
          () => two.s.directory.get(IMEI)?.userId === distA,
          5000,
        );
      });

      await t.step(
        "fences and alert settings saved on 1 apply on 2 (its alert engine)",
        async () => {
          const fence = ok(
            await one.call("/v3/new/geofence/save", {
              kind: "fence",
              userId: distA,
              name: "Depot",
              shape: { kind: "circle", center: { lat: 22.54, lng: 114.05 }, radius: 300 },
              enterAlert: true,
              imeis: [IMEI],
            }, admin),
          );
          await waitFor(
            "the fence in 2's zones",
            () => two.s.geofences.zonesOf(distA).some((z) => z.zone.id === fence.id),
            2000,
          );
          ok(await one.call("/v3/new/geofence/delete", { id: fence.id }, admin));
          await waitFor(
            "the fence gone on 2",
            () => two.s.geofences.zonesOf(distA).length === 0,
            2000,
          );
          ok(
            await one.call("/v3/new/alarm/device/save", {
              imei: IMEI,
              overSpeed: 88,
              overSecond: 10,
            }, admin),
          );
          await waitFor(
            "the threshold on 2",
            () => two.s.alertSettings.device(IMEI)?.overSpeed === 88,
            2000,
          );
        },
      );

      await t.step(
        "a domain's branding saved on 1 is served by 2 (its cache dropped)",
        async () => {
          const host = "fleet.example.com";
          assert.notEqual((await two.s.domains.forHost(host)).domainTitle, "Fleet Example");
          const current = await one.s.domains.forHost(host);
          await one.s.domains.save({ ...current, host, domainTitle: "Fleet Example" });
          await waitFor(
            "2's title",
            async () => (await two.s.domains.forHost(host)).domainTitle === "Fleet Example",
            2000,
          );
        },
      );

      await t.step("a login of a device instance 2 never heard of reads the store", async () => {
        const unseen = "359710049230110";
        // Written straight into the shared store: no sync message announces it.
        await one.s.deviceStore.insertMany([{ ...two.s.directory.get(IMEI)!, imei: unseen }]);
        assert.equal(two.s.directory.get(unseen), undefined);
        assert.equal((await two.s.directory.resolve(unseen))?.imei, unseen);
      });

      await t.step(
        "an alarm pushed on 1 pops up once on a console polling either instance",
        async () => {
          // The administrator's console (the device's owner is under distributor B since the move;
          // a live connection keeps the owner it logged in with).
          const root = ok(
            await two.call("/v3/new/account/login", { account: "admin", password: ADMIN_PASSWORD }),
          ).token;
          const poll = async (i: Instance, after?: number) =>
            ok(
              await i.call(
                `/v3/new/alarm/popups${after === undefined ? "" : `?after=${after}`}`,
                undefined,
                root,
              ),
            ) as { seq: number; list: { imei: string; type: string }[] };
          let seq = (await poll(two)).seq;
          await device!.send(gt06Alarm(sampleFix({ time: new Date(), alarm: "sos" }), 5));
          // The console alternates between the instances (a balancer), as a browser's polls may.
          const seen: string[] = [];
          const end = Date.now() + 4000;
          for (let n = 0; Date.now() < end; n++) {
            const answer = await poll(n % 2 ? one : two, seq);
            seq = answer.seq;
            seen.push(...answer.list.filter((a) => a.imei === IMEI).map((a) => a.type));
            await sleep(150);
          }
          assert.deepEqual(seen, ["sos"]);
        },
      );

      await t.step("the last stream of a viewer drops its subscription", async () => {
        for (const s of streams) await s.close();
        await waitFor("streams closed", () => two.s.monitor.streams.open === 0, 2000);
        assert.equal(two.s.monitor.relayStats().viewers, 0);
      });
    } finally {
      for (const s of streams) await s.close();
      await (device as RawDevice<unknown> | null)?.done().catch(() => {});
      await stopInstance(one);
      await stopInstance(two);
      await nats.stop();
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    }
  },
});
