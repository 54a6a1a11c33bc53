/**
 * The O2 methods through real signed `/route/rest` calls on a real server process, by a client
 * written from the public Tracksolid description (not from our code): common parameters,
 * parameters sorted by name and concatenated name+value, wrapped in the app secret at both
 * ends, MD5, upper-case hex; empty values left out; form posts; `{code, message, result}`.
 * A GT06 device on the gateway port answers the command; the alarm it raises reaches a push
 * endpoint started here on loopback.
 */
import { trackPoint } from "../../../tests/helpers/track_points.ts";
import assert from "node:assert/strict";
import { loadConfig } from "../../../lib/config.ts";
import { compose } from "../../../app/compose.ts";
import { ensureAdministrator } from "../../accounts/bootstrap.ts";
import { startServer } from "../../../tests/helpers/server.ts";
import { md5, OpenClient, utc } from "../../../tests/helpers/open_client.ts";
import { devicePorts } from "../../../tests/helpers/gateway.ts";
import { ApiClient } from "../../../tests/helpers/api_client.ts";
import { RawDevice } from "../../../tests/helpers/raw_device.ts";
import {
  gt06Alarm,
  gt06CommandReply,
  gt06Login,
  Gt06StreamReader,
  parseGt06Command,
} from "../../simulator/devices/gt06.ts";
import { sampleFix } from "../../simulator/fix.ts";
import { openTestKv } from "../../../tests/helpers/test_kv.ts";

const ADMIN_PASSWORD = "Admin12345";
const PASSWORD = "Passw0rd11";
const DEV1 = "359710049200011", DEV2 = "359710049200029", FOREIGN = "359710049200037";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const point = trackPoint;

/** Seven days at 10 s for DEV1, written before the server starts. */
async function seedTrack(dir: string, end: number) {
  const kv = await openTestKv(`${dir}/tracking.kv`);
  const s = await compose(kv, loadConfig({ DATA_DIR: dir, ADMIN_PASSWORD }));
  await ensureAdministrator(s.accountStore, ADMIN_PASSWORD);
  const begin = end - 60_479 * 10_000;
  await s.positions.importHistory(
    DEV1,
    Array.from({ length: 60_480 }, (_, i) => point(begin + i * 10_000, i)),
  );
  await s.ingestor.close();
  await s.motion.close();
  kv.close();
  return begin;
}

Deno.test({
  name: "open api methods through signed /route/rest calls on a real server",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async (t) => {
    const received: { type: string; body: string }[] = [];
    const hook = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
      received.push({ type: req.headers.get("content-type") ?? "", body: await req.text() });
      return new Response("ok");
    });
    const dir = await Deno.makeTempDir({ prefix: "tp-openapi-" });
    const end = Math.floor(Date.now() / 1000) * 1000 - 3_600_000;
    const begin = await seedTrack(dir, end);
    const server = await startServer({ ADMIN_PASSWORD, WEBHOOK_ALLOW_PRIVATE: "on" }, {
      dataDir: dir,
    });
    try {
      // Accounts and devices through the console API; the track is DEV1's.
      const admin = await ApiClient.login(server.url, "admin", ADMIN_PASSWORD);
      const me = await admin.call("/v3/new/account/current");
      const mk = async (account: string) =>
        (await admin.call("/v3/new/account/add", {
          account,
          nickName: account,
          password: PASSWORD,
          accountType: 8,
          parentId: me.userId,
        })).id as string;
      const distId = await mk("rest_dist");
      const otherId = await mk("rest_other");
      for (const [userId, imeis] of [[distId, [DEV1, DEV2]], [otherId, [FOREIGN]]] as const) {
        await admin.call("/v3/new/newEquipment/importEquipment", {
          userId,
          mcType: "GT06N",
          imeis,
        });
      }
      const dist = await ApiClient.login(server.url, "rest_dist", PASSWORD);
      const key = await dist.call("/v3/new/openapi/key/create", {
        name: "integration",
        scope: ["read", "commands", "manage"],
      });
      const client = new OpenClient(server.url, key.appKey, key.appSecret);

      await t.step("token.get with the account and its password's MD5", async () => {
        const r = await client.call("jimi.oauth.token.get", {
          user_id: "rest_dist",
          user_pwd_md5: md5(PASSWORD),
          expires_in: "7200",
        });
        assert.equal(r.code, 0, JSON.stringify(r));
        client.accessToken = r.result.accessToken;
      });

      await t.step("devices and locations", async () => {
        const list = await client.call("jimi.user.device.list", { target: "rest_dist" });
        assert.equal(list.code, 0, JSON.stringify(list));
        assert.deepEqual(list.result.map((d: { imei: string }) => d.imei), [DEV1, DEV2]);
        const loc = await client.call("jimi.device.location.get", { imeis: `${DEV1},${DEV2}` });
        assert.equal(loc.code, 0);
        assert.equal(loc.result.length, 2);
        // A share link an integrator can forward: absolute, on this server.
        const share = await client.call("jimi.device.location.URL.share", { imei: DEV1 });
        assert.equal(share.code, 0, JSON.stringify(share));
        assert.ok(
          share.result.url.startsWith(`${server.url}/monitorShare?token=`),
          share.result.url,
        );
      });

      // How fast is bench:openapi's; here the answer's content.
      await t.step("a 7-day track: 60,480 points in time order", async () => {
        const r = await client.call("jimi.device.track.list", {
          imei: DEV1,
          begin_time: utc(begin),
          end_time: utc(end),
          map_type: "GOOGLE",
        });
        assert.equal(r.code, 0);
        assert.equal(r.result.length, 60_480);
        assert.equal(r.result[0].gpsTime, utc(begin));
        for (let i = 1; i < r.result.length; i++) {
          assert.ok(r.result[i - 1].gpsTime < r.result[i].gpsTime);
        }
        // A client that takes gzip gets the ~9 MB answer gzipped (fetch above undid it).
        const res = await fetch(`${server.url}/route/rest`, {
          method: "POST",
          headers: { "accept-encoding": "gzip" },
          body: new URLSearchParams(client.params("jimi.device.track.list", {
            imei: DEV1,
            begin_time: utc(begin),
            end_time: utc(end),
          })),
        });
        assert.equal(res.headers.get("content-encoding"), "gzip");
        assert.equal((await res.json()).result.length, 60_480);
      });

      await t.step("1002 for a device of another subtree", async () => {
        const r = await client.call("jimi.device.location.get", { imeis: `${DEV1},${FOREIGN}` });
        assert.equal(r.code, 1002);
      });

      await t.step("a command to a real device on the gateway, then its result", async () => {
        const p = devicePorts(server);
        const d = await RawDevice.open(p.gt06);
        await d.send(gt06Login(DEV2, 1));
        await d.take(10);
        const sent = await client.call("jimi.open.instruction.send", {
          imei: DEV2,
          inst_param_json: JSON.stringify({ inst_id: "locate" }),
        });
        assert.equal(sent.code, 0, JSON.stringify(sent));
        const head = await d.take(3);
        const rest = await d.take(head[2] + 2);
        const [frame] = new Gt06StreamReader().push(new Uint8Array([...head, ...rest]));
        const command = parseGt06Command(frame.content)!;
        await d.send(gt06CommandReply(command.serverFlag, "Lat:22.5,Lon:114.0", 30));
        const until = Date.now() + 5000;
        for (;;) {
          const r = await client.call("jimi.open.instruction.result", {
            imei: DEV2,
            id: sent.result.id,
          });
          if (r.code === 0 && r.result[0].status === "succeeded") {
            assert.equal(r.result[0].reply, "Lat:22.5,Lon:114.0");
            break;
          }
          assert.ok(Date.now() < until, JSON.stringify(r));
          await sleep(50);
        }

        // An SOS from the device: listed by alarm.list and pushed in the Tracksolid form.
        await dist.call("/v3/new/openapi/push/add", {
          url: `http://127.0.0.1:${hook.addr.port}/alarm`,
          kinds: ["alarm"],
          format: "tracksolid",
        });
        await d.send(gt06Alarm(sampleFix({ time: new Date(), alarm: "sos" }), 31));
        await d.take(10);
        await d.done();
        const pushUntil = Date.now() + 5000;
        while (!received.length) {
          assert.ok(Date.now() < pushUntil, "no push");
          await sleep(50);
        }
        const form = new URLSearchParams(received[0].body);
        assert.equal(form.get("msgType"), "jimi.push.device.alarm");
        assert.equal(JSON.parse(form.get("data")!).imei, DEV2);
        const alarms = await client.call("jimi.device.alarm.list", {
          imei: DEV2,
          begin_time: utc(Date.now() - 86_400_000),
          end_time: utc(Date.now() + 60_000),
        });
        assert.equal(alarms.code, 0);
        assert.equal(alarms.result[0].alertTypeId, "sos");
      });

      await t.step("a fence: create, list, delete", async () => {
        const c = await client.call("jimi.open.platform.fence.create", {
          fence_name: "Depot",
          fence_type: "circle",
          geom: "22.54,114.06",
          radius: "500",
        });
        assert.equal(c.code, 0, JSON.stringify(c));
        const again = await client.call("jimi.open.platform.fence.create", {
          fence_name: "Depot",
          fence_type: "circle",
          geom: "22.54,114.06",
          radius: "500",
        });
        assert.equal(again.code, 1114);
        const l = await client.call("jimi.open.platform.fence.list");
        assert.equal(l.result.length, 1);
        const del = await client.call("jimi.open.platform.fence.delete", {
          fence_id: c.result.fenceId,
        });
        assert.equal(del.code, 0);
        assert.equal((await client.call("jimi.open.platform.fence.list")).result.length, 0);
      });
    } finally {
      await hook.shutdown();
      await server.stop();
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    }
  },
});
