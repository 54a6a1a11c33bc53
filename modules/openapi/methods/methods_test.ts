/**
 * The Open API's methods and push on a real app (real KV file, real services): run() with a
 * real session of a distributor, parameters as form strings. Devices, a 7-day track, an alarm
 * through the ingest, a command answered by a device on a live connection, fences, 1002 for
 * another subtree's IMEI, and a push endpoint on loopback receiving an alarm in both forms.
 */
import { trackPoint } from "../../../tests/helpers/track_points.ts";
import assert from "node:assert/strict";
import { testApp } from "../../../tests/helpers/harness.ts";
import { accountWithDevices } from "../../../tests/helpers/alerting.ts";
import { testConnection, waitFor } from "../../commands/test_device.ts";
import type { Session } from "../../../lib/http/env.ts";
import type { Position } from "../../gateway/protocols/types.ts";
import { sign } from "../../notifications/webhook.ts";
import { OPEN_CODES, OpenApiError } from "../types.ts";
import { formatOpenTime } from "./common.ts";
import { answerBytes } from "./raw_json.ts";

const DEV1 = "359710049100011", DEV2 = "359710049100029", FOREIGN = "359710049100037";

const point = trackPoint;

Deno.test("open api methods and push on a real app", async (t) => {
  const app = await testApp({ WEBHOOK_ALLOW_PRIVATE: "on", WEBHOOK_RETRY_MS: "50" });
  const received: { type: string; body: string; headers: Headers }[] = [];
  const hook = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    received.push({
      type: req.headers.get("content-type") ?? "",
      body: await req.text(),
      headers: req.headers,
    });
    return new Response("ok");
  });
  try {
    const s = app.services;
    const dist = await accountWithDevices(app, "o2_dist", [DEV1, DEV2]);
    await accountWithDevices(app, "o2_other", [FOREIGN]);
    const session: Session = {
      accountId: dist.id,
      cAccountId: dist.id,
      isVirtual: false,
      jti: "test",
      via: "bearer",
    };
    const call = async (name: string, params: Record<string, string>) => {
      const m = s.openMethods.find((x) => x.name === name);
      assert.ok(m, name);
      const answer = await m.run({
        session,
        appKey: "test",
        params: m.params.parse(params) as Record<string, unknown>,
      });
      // As the frame answers: RawJson payloads spliced in, then read back as a client does.
      return JSON.parse(new TextDecoder().decode(answerBytes({ code: 0 }, answer)));
    };
    const code = async (name: string, params: Record<string, string>) => {
      try {
        await call(name, params);
        return 0;
      } catch (e) {
        if (e instanceof OpenApiError) return e.code;
        throw e;
      }
    };

    await t.step("devices: list, detail, update", async () => {
      const { result } = await call("jimi.user.device.list", {});
      assert.deepEqual((result as { imei: string }[]).map((d) => d.imei), [DEV1, DEV2]);
      await call("jimi.open.device.update", { imei: DEV1, device_name: "Truck 1" });
      const detail = await call("jimi.track.device.detail", { imei: DEV1 });
      assert.equal((detail.result as { deviceName: string }).deviceName, "Truck 1");
      assert.equal(
        (detail.result as { account: string }).account,
        "o2_dist",
      );
    });

    await t.step("a 7-day track at 10 s: 60,480 points in time order", async () => {
      const end = Math.floor(Date.now() / 1000) * 1000 - 3_600_000;
      const begin = end - 7 * 86_400_000 + 10_000;
      const points = Array.from({ length: 60_480 }, (_, i) => point(begin + i * 10_000, i));
      await s.positions.importHistory(DEV1, points);
      // Its speed is measured by `deno task bench:openapi` (docs/performance.md), not here.
      const { result } = await call("jimi.device.track.list", {
        imei: DEV1,
        begin_time: formatOpenTime(begin),
        end_time: formatOpenTime(end),
      });
      const list = result as { gpsTime: string; lat: number; gpsSpeed: number }[];
      assert.equal(list.length, 60_480);
      assert.equal(list[0].gpsTime, formatOpenTime(begin));
      assert.equal(list.at(-1)!.gpsTime, formatOpenTime(end));
      for (let i = 1; i < list.length; i++) assert.ok(list[i - 1].gpsTime < list[i].gpsTime);
      assert.equal(list[5].lat, 22.50005);
      // Over 31 days per call is a parameter error.
      assert.equal(
        await code("jimi.device.track.list", {
          imei: DEV1,
          begin_time: formatOpenTime(begin - 30 * 86_400_000),
          end_time: formatOpenTime(end),
        }),
        OPEN_CODES.parameter,
      );
    });

    await t.step("locations: the live position; BAIDU coordinates shift", async () => {
      const device = s.directory.get(DEV2)!;
      await s.ingestor.submit(device, [{
        type: "position",
        position: {
          time: new Date(Date.now() - 5_000),
          valid: true,
          latitude: 22.54,
          longitude: 114.06,
          altitude: 5,
          speed: 10,
          course: 180,
          posType: 1,
          satellites: 8,
          attributes: {},
        } as Position,
      }]);
      const { result } = await call("jimi.device.location.get", { imeis: `${DEV1},${DEV2}` });
      const [, loc] = result as { imei: string; lat: number; lng: number; status: string }[];
      assert.equal(loc.imei, DEV2);
      assert.equal(loc.lat, 22.54);
      assert.equal(loc.status, "1");
      const baidu = await call("jimi.device.location.get", { imeis: DEV2, map_type: "BAIDU" });
      const b = (baidu.result as { lat: number; lng: number }[])[0];
      assert.ok(Math.abs(b.lat - 22.54) > 0.001 && Math.abs(b.lng - 114.06) > 0.005);
      const all = await call("jimi.user.device.location.list", {});
      assert.equal((all.result as unknown[]).length, 2);
    });

    await t.step("1002: an IMEI of another subtree fails the whole call", async () => {
      assert.equal(
        await code("jimi.device.location.get", { imeis: `${DEV1},${FOREIGN}` }),
        OPEN_CODES.illegalUserOrDevice,
      );
      assert.equal(
        await code("jimi.device.track.list", {
          imei: FOREIGN,
          begin_time: "2026-01-01 00:00:00",
          end_time: "2026-01-02 00:00:00",
        }),
        OPEN_CODES.illegalUserOrDevice,
      );
      assert.equal(
        await code("jimi.user.device.list", { target: "o2_other" }),
        OPEN_CODES.illegalUserOrDevice,
      );
    });

    await t.step(
      "push endpoints: an alarm arrives in the Tracksolid form and as JSON",
      async () => {
        const url = `http://127.0.0.1:${hook.addr.port}/push`;
        const form = await app.call("/v3/new/openapi/push/add", {
          url,
          kinds: ["alarm"],
          format: "tracksolid",
        }, dist.token);
        assert.equal(form.json.code, 10000, JSON.stringify(form.json));
        const json = await app.call("/v3/new/openapi/push/add", {
          url: `${url}?json`,
          kinds: ["alarm", "status"],
          format: "json",
        }, dist.token);
        assert.equal(json.json.code, 10000);
        const listed = await app.call("/v3/new/openapi/push/list", {}, dist.token);
        assert.equal(listed.json.data.length, 2);

        const before = Date.now();
        await s.ingestor.submit(s.directory.get(DEV1)!, [{
          type: "status",
          time: new Date(),
          alarm: "sos",
          attributes: {},
        }]);
        await waitFor("two pushes", () => Promise.resolve(received.length >= 2 && received));
        const tsForm = received.find((r) =>
          r.type.startsWith("application/x-www-form-urlencoded")
        )!;
        const fields = new URLSearchParams(tsForm.body);
        assert.equal(fields.get("msgType"), "jimi.push.device.alarm");
        assert.equal(fields.get("token"), form.json.data.secret);
        const data = JSON.parse(fields.get("data")!);
        assert.equal(data.imei, DEV1);
        assert.equal(data.alarmType, "sos");
        assert.equal(data.alarmName, "SOS");
        const js = received.find((r) => r.type.startsWith("application/json"))!;
        const ts = js.headers.get("x-webhook-timestamp")!;
        assert.equal(
          js.headers.get("x-webhook-signature"),
          `sha256=${await sign(json.json.data.secret, ts, js.body)}`,
        );
        assert.equal(JSON.parse(js.body).data.alarmType, "sos");
        // A delivery is logged after its answer: wait for the log rather than assume it is there.
        const log = await waitFor("two deliveries logged", async () => {
          const r = await app.call("/v3/new/openapi/push/log", {}, dist.token);
          return r.json.data.length >= 2 && r;
        });
        assert.ok(log.json.data.length >= 2);

        const alarms = await call("jimi.device.alarm.list", {
          imei: DEV1,
          begin_time: formatOpenTime(before - 60_000),
          end_time: formatOpenTime(Date.now() + 60_000),
        });
        const rows = alarms.result as { alertTypeId: string; alarmTypeName: string }[];
        assert.equal(rows[0].alertTypeId, "sos");
        assert.equal((alarms.data as { total: number }).total, 1);

        const removed = await app.call("/v3/new/openapi/push/delete", {
          id: form.json.data.id,
        }, dist.token);
        assert.equal(removed.json.code, 10000);
      },
    );

    await t.step("instructions: list, send to a live device, read its result", async () => {
      // Command results and positions go to this endpoint (Tracksolid form).
      const added = await app.call("/v3/new/openapi/push/add", {
        url: `http://127.0.0.1:${hook.addr.port}/results`,
        kinds: ["command", "position"],
        format: "tracksolid",
      }, dist.token);
      assert.equal(added.json.code, 10000);
      const dev = testConnection(s.commands, { imei: DEV2, protocol: "gt06" });
      s.connections.attach(dev.conn);
      const list = await call("jimi.open.instruction.list", { imei: DEV2 });
      const ids = (list.result as { id: string }[]).map((i) => i.id);
      assert.ok(ids.includes("locate"));
      const sent = await call("jimi.open.instruction.send", {
        imei: DEV2,
        inst_param_json: JSON.stringify({ inst_id: "locate" }),
      });
      const id = (sent.result as { id: string }).id;
      const done = await waitFor("command answered", async () => {
        const r = await call("jimi.open.instruction.result", { imei: DEV2, id });
        const c = (r.result as { status: string; reply: string }[])[0];
        return c.status === "succeeded" && c;
      });
      assert.ok(done.reply.length > 0);
      const pushed = await waitFor("the command result pushed", () => {
        const hit = received.map((r) => new URLSearchParams(r.body))
          .find((f) => f.get("msgType") === "jimi.push.instruction.result");
        return Promise.resolve(hit && JSON.parse(hit.get("data")!));
      });
      assert.equal(pushed.id, id);
      assert.equal(pushed.status, "succeeded");
      assert.equal(
        await code("jimi.open.instruction.send", {
          imei: DEV2,
          inst_param_json: JSON.stringify({ inst_id: "noSuchThing" }),
        }),
        OPEN_CODES.instructionNotExists,
      );
      s.connections.detach(dev.conn);
      assert.equal(
        await code("jimi.open.instruction.send", {
          imei: DEV2,
          inst_param_json: JSON.stringify({ inst_id: "locate" }),
        }),
        OPEN_CODES.instructionDeviceOffline,
      );
    });

    await t.step("positions reach the push endpoint batched, in time order", async () => {
      const device = s.directory.get(DEV1)!;
      const t0 = Math.floor(Date.now() / 1000) * 1000 - 30_000;
      for (let i = 0; i < 3; i++) {
        await s.ingestor.submit(device, [{
          type: "position",
          position: {
            time: new Date(t0 + i * 10_000),
            valid: true,
            latitude: 22.6 + i * 1e-3,
            longitude: 114.1,
            altitude: 5,
            speed: 10,
            course: 0,
            posType: 1,
            satellites: 8,
            attributes: {},
          } as Position,
        }]);
      }
      const batch = await waitFor("a position batch", () => {
        const hit = received.map((r) => new URLSearchParams(r.body))
          .find((f) =>
            f.get("msgType") === "jimi.push.device.gps" &&
            JSON.parse(f.get("data")!).some((p: { imei: string }) => p.imei === DEV1)
          );
        return Promise.resolve(hit && JSON.parse(hit.get("data")!));
      });
      const mine = (batch as { imei: string; gpsTime: string; lat: number }[])
        .filter((p) => p.imei === DEV1);
      assert.deepEqual(
        mine.map((p) => p.gpsTime),
        [0, 1, 2].map((i) => formatOpenTime(t0 + i * 10_000)),
      );
      assert.equal(mine[2].lat, 22.602);
    });

    await t.step("fences: create, 1114 for a taken name, list, delete", async () => {
      const created = await call("jimi.open.platform.fence.create", {
        fence_name: "Depot",
        fence_type: "circle",
        geom: "22.54,114.06",
        radius: "500",
      });
      const fenceId = (created.result as { fenceId: string }).fenceId;
      assert.equal(
        await code("jimi.open.platform.fence.create", {
          fence_name: "Depot",
          fence_type: "circle",
          geom: "22.55,114.06",
          radius: "500",
        }),
        OPEN_CODES.fenceNameExists,
      );
      const dev = await call("jimi.open.device.fence.create", {
        imei: DEV1,
        fence_name: "Yard",
        lat: "22.5",
        lng: "114.05",
        radius: "300",
        alarm_type: "in",
      });
      const listed = await call("jimi.open.platform.fence.list", {});
      const fences = listed.result as { fenceName: string; imeis: string; alarmType: string }[];
      assert.deepEqual(fences.map((f) => f.fenceName), ["Depot", "Yard"]);
      assert.equal(fences[1].imeis, DEV1);
      assert.equal(fences[1].alarmType, "in");
      await call("jimi.open.platform.fence.delete", { fence_id: fenceId });
      await call("jimi.open.device.fence.delete", {
        imei: DEV1,
        fence_id: (dev.result as { fenceId: string }).fenceId,
      });
      assert.equal(((await call("jimi.open.platform.fence.list", {})).result as []).length, 0);
    });
  } finally {
    await app.services.webhooks.idle();
    await hook.shutdown();
    await app.close();
  }
});
