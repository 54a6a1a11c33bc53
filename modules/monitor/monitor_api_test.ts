/**
 * Monitor API against the real app on a real KV file: objects and counts, the live stream's
 * subtree visibility (fed by the real ingestor and event bus), alerts, share link rules.
 */
import assert from "node:assert/strict";
import { testApp } from "../../tests/helpers/harness.ts";
import type { Device } from "../devices/model.ts";
import type { Position } from "../gateway/protocols/types.ts";
import { COLUMN_SCALES, mileageOf, type TrackColumns, undelta } from "../positions/columns.ts";

const PASSWORD = "Passw0rd11";

function position(
  lat: number,
  lng: number,
  knots: number,
  extra: Partial<Position> = {},
): Position {
  return {
    time: new Date(),
    valid: true,
    latitude: lat,
    longitude: lng,
    altitude: 10,
    speed: knots,
    course: 90,
    satellites: 9,
    posType: 1 as Position["posType"],
    acc: true,
    attributes: {},
    ...extra,
  };
}

/** Reads SSE events from a response until `until` says stop or the time runs out. */
async function readEvents(
  res: Response,
  ms: number,
  until: (events: { event: string; data: string }[]) => boolean = () => false,
) {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  const events: { event: string; data: string }[] = [];
  let buf = "";
  const deadline = Date.now() + ms;
  try {
    while (Date.now() < deadline && !until(events)) {
      const r = await Promise.race([
        reader.read(),
        new Promise<null>((ok) => setTimeout(() => ok(null), deadline - Date.now())),
      ]);
      if (!r || r.done) break;
      buf += r.value;
      let i;
      while ((i = buf.indexOf("\n\n")) >= 0) {
        const block = buf.slice(0, i);
        buf = buf.slice(i + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1] ?? "";
        const data = /^data: (.*)$/m.exec(block)?.[1] ?? "";
        if (event) events.push({ event, data });
      }
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  return events;
}

Deno.test("monitor API: objects, live stream visibility, share links", async (t) => {
  const app = await testApp();
  try {
    const s = app.services;
    const admin = await app.adminToken();
    const adminId = (await s.accountStore.findIdByLogin("admin"))!;
    const add = async (account: string, parentId: string, type: number) =>
      (await app.call("/v3/new/account/add", {
        account,
        nickName: `${account} nick`,
        password: PASSWORD,
        accountType: type,
        parentId,
      }, admin)).json.data.id as string;
    const distA = await add("mon_dist_a", adminId, 8);
    const userA = await add("mon_user_a", distA, 12);
    const distB = await add("mon_dist_b", adminId, 8);
    const tokenA = await app.login("mon_dist_a", PASSWORD);
    const tokenB = await app.login("mon_dist_b", PASSWORD);
    const tokenUserA = await app.login("mon_user_a", PASSWORD);
    const imeis = { a1: "359710049100011", a2: "359710049100012", b1: "359710049100021" };
    const imp = async (userId: string, list: string[]) =>
      assert.equal(
        (await app.call("/v3/new/newEquipment/importEquipment", {
          userId,
          mcType: "GT06N",
          imeis: list,
        }, admin)).json.data.succeeded,
        list.length,
      );
    await imp(distA, [imeis.a1]);
    await imp(userA, [imeis.a2]);
    await imp(distB, [imeis.b1]);
    const dev = (imei: string) => s.directory.get(imei) as Device;
    await s.ingestor.submit(dev(imeis.a1), [{
      type: "position",
      position: position(22.54, 114.05, 30),
    }]);
    await s.ingestor.submit(dev(imeis.a2), [
      { type: "position", position: position(22.55, 114.06, 0, { acc: false }) },
    ]);

    await t.step("objects lists the subtree's devices as parallel arrays with counts", async () => {
      const r = await app.call("/v3/new/monitor/objects", undefined, tokenA);
      assert.equal(r.json.code, 10000);
      const d = r.json.data;
      assert.deepEqual([...d.imei].sort(), [imeis.a1, imeis.a2]);
      const i1 = d.imei.indexOf(imeis.a1), i2 = d.imei.indexOf(imeis.a2);
      assert.equal(d.statuses[d.status[i1]], "moving");
      assert.equal(d.statuses[d.status[i2]], "stopped");
      assert.equal(d.lat[i1], 22.54);
      assert.ok(Math.abs(d.speed[i1] - 55.6) < 0.1, "30 knots are 55.6 km/h");
      assert.deepEqual(d.counts, {
        all: 2,
        moving: 1,
        idling: 0,
        stopped: 1,
        offline: 0,
        notActivated: 0,
      });
      // The counts agree with the device list's status filters.
      for (const [status, key] of [[1, "moving"], [3, "stopped"], [4, "offline"]] as const) {
        const list = await app.call("/v3/new/newEquipment/queryEquipmentList", {
          pageNum: 1,
          pageSize: 100,
          status,
        }, tokenA);
        assert.equal(list.json.data.total, d.counts[key], key);
      }
      const b = await app.call("/v3/new/monitor/objects", undefined, tokenB);
      assert.deepEqual(b.json.data.imei, [imeis.b1]);
      assert.equal(b.json.data.lat[0], null, "never reported: no position");
      // Never heard from: "not activated" (filter 5), not offline.
      assert.equal(b.json.data.counts.offline, 0);
      assert.equal(b.json.data.counts.notActivated, 1);
      for (const [status, total] of [[4, 0], [5, 1]]) {
        const list = await app.call("/v3/new/newEquipment/queryEquipmentList", {
          pageNum: 1,
          pageSize: 100,
          status,
        }, tokenB);
        assert.equal(list.json.data.total, total, `filter ${status}`);
      }
    });

    await t.step("objects carry each device's application type (its map icon)", async () => {
      const r = await app.call("/v3/new/monitor/objects", undefined, tokenA);
      const d = r.json.data;
      assert.equal(d.appTypes[d.appType[d.imei.indexOf(imeis.a1)]], "car", "GT06N default");
      const detail = await app.call(
        "/v3/new/newEquipment/getDeviceDetail",
        { imei: imeis.a1 },
        tokenA,
      );
      assert.equal(detail.json.code, 10000, JSON.stringify(detail.json));
      const b = detail.json.data.basic;
      const saved = await app.call("/v3/new/newEquipment/updateBasic", {
        imei: imeis.a1,
        deviceName: b.deviceName,
        sim: b.sim,
        iccid: b.iccid,
        imsi: b.imsi,
        sn: b.sn,
        macAddress: b.macAddress,
        reMark: b.reMark,
        applicationType: "truck",
      }, tokenA);
      assert.equal(saved.json.code, 10000);
      const again = (await app.call("/v3/new/monitor/objects", undefined, tokenA)).json.data;
      assert.equal(again.appTypes[again.appType[again.imei.indexOf(imeis.a1)]], "truck");
    });

    await t.step("playback as columns decodes to the same points as the object form", async () => {
      const t0 = Date.parse("2026-10-05T08:00:00Z");
      await s.positions.importHistory(
        imeis.a2,
        Array.from({ length: 500 }, (_, i) => ({
          time: t0 + i * 1000 + (i % 3),
          lat: 22.5 + i * 0.0001234,
          lng: 114 - i * 0.0000567,
          speed: (i % 90) + 0.3,
          course: (i * 7) % 360,
          altitude: 12.5 + (i % 5),
          satellites: 9,
          posType: 1 as const,
          valid: true,
          acc: i % 2 ? true : null,
          mileage: i % 10 ? 1000 + i * 0.03 : null,
          battery: null,
          signal: null,
          attributes: {},
        })),
      );
      const range = {
        imei: imeis.a2,
        startTime: "2026-10-05T00:00:00Z",
        endTime: "2026-10-06T00:00:00Z",
      };
      const objs = await app.call("/v3/new/monitor/playback", range, tokenA);
      const cols = await app.call(
        "/v3/new/monitor/playback",
        { ...range, format: "columns" },
        tokenA,
      );
      assert.equal(cols.json.code, 10000);
      const pts = objs.json.data.points, c = cols.json.data as TrackColumns;
      assert.equal(c.format, "columns");
      assert.equal(c.n, 500);
      assert.equal(pts.length, 500);
      const time = undelta(c.time, 1, new Float64Array(c.n));
      const lat = undelta(c.lat, COLUMN_SCALES.lat, new Float64Array(c.n));
      const lng = undelta(c.lng, COLUMN_SCALES.lng, new Float64Array(c.n));
      const speed = undelta(c.speed, COLUMN_SCALES.speed, new Float64Array(c.n));
      const mileage = mileageOf(c.mileage);
      pts.forEach((p: Record<string, number | boolean | null>, i: number) => {
        assert.equal(time[i], Date.parse(p.gpsTime as unknown as string));
        assert.ok(Math.abs(lat[i] - (p.lat as number)) < 1e-9, `lat ${i}`);
        assert.ok(Math.abs(lng[i] - (p.lng as number)) < 1e-9, `lng ${i}`);
        assert.ok(Math.abs(speed[i] - (p.speed as number)) < 1e-9, `speed ${i}`);
        assert.equal(c.course[i], p.course);
        assert.equal(c.acc[i], p.acc === null ? -1 : p.acc ? 1 : 0);
        assert.equal(
          mileage[i] === null ? null : Math.round(mileage[i]! * 100),
          p.mileage === null ? null : Math.round((p.mileage as number) * 100),
        );
      });
      // The point of the format: far fewer bytes for the same track.
      assert.ok(JSON.stringify(c).length * 3 < JSON.stringify(pts).length);
      const foreign = await app.call(
        "/v3/new/monitor/playback",
        { ...range, format: "columns" },
        tokenB,
      );
      assert.equal(foreign.json.code, 42012);
      const bad = await app.call("/v3/new/monitor/playback", { ...range, format: "csv" }, tokenA);
      assert.notEqual(bad.json.code, 10000);
    });

    await t.step("objects carry the user's follow marks and group names", async () => {
      const f = await app.call(
        "/v3/new/newEquipment/follow",
        { imeis: [imeis.a2], follow: true },
        tokenA,
      );
      assert.equal(f.json.code, 10000);
      const g = await app.call(
        "/v3/new/newEquipment/addGroup",
        { userId: distA, name: "North" },
        tokenA,
      );
      assert.equal(g.json.code, 10000, JSON.stringify(g.json));
      const groups = await app.call("/v3/new/newEquipment/getGroupList", { userId: distA }, tokenA);
      const north = groups.json.data.find((x: { name: string }) => x.name === "North").id;
      const set = await app.call("/v3/new/newEquipment/setGroup", {
        imeis: [imeis.a1],
        groupId: north,
      }, tokenA);
      assert.equal(set.json.code, 10000, JSON.stringify(set.json));
      const d = (await app.call("/v3/new/monitor/objects", undefined, tokenA)).json.data;
      const i1 = d.imei.indexOf(imeis.a1), i2 = d.imei.indexOf(imeis.a2);
      assert.deepEqual([d.followed[i1], d.followed[i2]], [false, true]);
      assert.deepEqual([d.group[i1], d.group[i2]], ["North", ""]);
      // Follow marks are per logged-in user.
      const other = (await app.call("/v3/new/monitor/objects", undefined, admin)).json.data;
      assert.equal(other.followed[other.imei.indexOf(imeis.a2)], false);
    });

    await t.step("one device by imei, refused outside the subtree", async () => {
      const one = await app.call(`/v3/new/monitor/objects?imei=${imeis.a2}`, undefined, tokenUserA);
      assert.deepEqual(one.json.data.imei, [imeis.a2]);
      const other = await app.call(`/v3/new/monitor/objects?imei=${imeis.b1}`, undefined, tokenA);
      assert.equal(other.json.code, 42012);
      const bad = await app.call(`/v3/new/monitor/objects?imei=12`, undefined, tokenA);
      assert.equal(bad.json.code, 49004);
      assert.equal(bad.json.data.field, "imei");
    });

    await t.step("the stream needs a session", async () => {
      const r = await app.call("/v3/new/monitor/stream");
      assert.equal(r.status, 401);
    });

    await t.step("the stream carries the subtree's events and never a sibling's", async () => {
      const open = async (token: string, query = "") => {
        const res = await app.app.request(`/v3/new/monitor/stream${query}`, {
          headers: { authorization: `Bearer ${token}` },
        });
        assert.equal(res.status, 200);
        assert.match(res.headers.get("content-type")!, /text\/event-stream/);
        return res;
      };
      const [resA, resB, resUser, resOne] = await Promise.all([
        open(tokenA),
        open(tokenB),
        open(tokenUserA),
        open(tokenA, `?imei=${imeis.a1}`),
      ]);
      const reading = [
        readEvents(resA, 3000, (e) => e.some((x) => x.data.includes(imeis.a2))),
        readEvents(resB, 2500, (e) => e.some((x) => x.data.includes(imeis.b1))),
        readEvents(resUser, 2000),
        readEvents(resOne, 2000),
      ];
      await new Promise((r) => setTimeout(r, 100));
      await s.ingestor.submit(dev(imeis.a1), [
        { type: "position", position: position(22.541, 114.051, 31) },
      ]);
      await s.ingestor.submit(dev(imeis.a2), [
        { type: "position", position: position(22.551, 114.061, 20) },
        { type: "position", position: position(22.552, 114.062, 21, { alarm: "sos" }) },
      ]);
      await s.ingestor.submit(dev(imeis.b1), [
        { type: "position", position: position(30.1, 120.1, 10) },
      ]);
      const [a, b, user, one] = await Promise.all(reading);
      const posImeis = (ev: { event: string; data: string }[]) =>
        new Set(
          ev.filter((e) => e.event === "pos").flatMap((e) =>
            JSON.parse(e.data).map((r: string[]) => r[0])
          ),
        );
      assert.deepEqual([...posImeis(a)].sort(), [imeis.a1, imeis.a2]);
      assert.deepEqual([...posImeis(b)], [imeis.b1]);
      assert.deepEqual([...posImeis(user)], [imeis.a2], "an end user sees only its own devices");
      assert.deepEqual([...posImeis(one)], [imeis.a1]);
      for (const ev of [...a, ...user]) {
        assert.ok(!ev.data.includes(imeis.b1), "sibling event leaked");
      }
      for (const ev of b) assert.ok(!ev.data.includes(imeis.a1) && !ev.data.includes(imeis.a2));
      // The latest position wins and carries the status.
      const rowA2 = a.filter((e) => e.event === "pos").flatMap((e) => JSON.parse(e.data))
        .filter((r: unknown[]) => r[0] === imeis.a2).at(-1);
      assert.equal(rowA2[1], 22.552);
      const alert = user.find((e) => e.event === "alert");
      assert.ok(alert, "the alarm reached the owner's stream");
      assert.equal(JSON.parse(alert!.data).type, "sos");
      assert.equal(s.monitor.streams.open, 0, "closed streams unsubscribe");
    });

    await t.step(
      "shutdown ends open streams (a graceful stop must not wait for them)",
      async () => {
        const res = await app.app.request("/v3/new/monitor/stream", {
          headers: { authorization: `Bearer ${tokenA}` },
        });
        const reader = res.body!.getReader();
        await reader.read(); // the "connected" comment
        assert.equal(s.monitor.streams.open, 1);
        s.monitor.streams.closeAll();
        for (;;) if ((await reader.read()).done) break;
        assert.equal(s.monitor.streams.open, 0);
      },
    );

    await t.step("share links: 1-720 whole hours on a visible device", async () => {
      for (const hours of [0, 721, 1.5, -3]) {
        const r = await app.call("/v3/new/monitor/share/create", { imei: imeis.a1, hours }, tokenA);
        assert.equal(r.json.code, 44005, `hours ${hours}`);
        assert.equal(r.json.data.field, "hours");
      }
      const str = await app.call(
        "/v3/new/monitor/share/create",
        { imei: imeis.a1, hours: "5" },
        tokenA,
      );
      assert.equal(str.json.code, 49004);
      const foreign = await app.call(
        "/v3/new/monitor/share/create",
        { imei: imeis.b1, hours: 5 },
        tokenA,
      );
      assert.equal(foreign.json.code, 42012);
      for (const hours of [1, 720]) {
        const r = await app.call("/v3/new/monitor/share/create", { imei: imeis.a1, hours }, tokenA);
        assert.equal(r.json.code, 10000);
        const span = Date.parse(r.json.data.expiresAt) - Date.parse(r.json.data.createdAt);
        assert.equal(span, hours * 3600_000);
      }
    });

    await t.step("a share link works without login and is refused once expired", async () => {
      const made = await app.call(
        "/v3/new/monitor/share/create",
        { imei: imeis.a1, hours: 2 },
        tokenA,
      );
      const token = made.json.data.token as string;
      assert.match(made.json.data.url, /^\/monitorShare\?token=/);
      const view = await app.call(`/v3/new/monitor/share/view?token=${token}`);
      assert.equal(view.json.code, 10000);
      assert.deepEqual(view.json.data.objects.imei, [imeis.a1]);
      const stream = await app.app.request(`/v3/new/monitor/share/stream?token=${token}`);
      assert.equal(stream.status, 200);
      await stream.body!.cancel();
      // Expire it: the link record says when it ends; move that into the past.
      const link = (await s.monitor.shares.list(
        { accountId: distA, cAccountId: distA, isVirtual: false, jti: "x", via: "bearer" },
        imeis.a1,
      )).find((l) => l.token === token)!;
      await assert.rejects(() => s.monitor.shares.open(token, link.expiresAt), /shareLinkExpired/);
      await s.kv.set(["monitor", "share", token], { ...link, expiresAt: Date.now() - 1000 });
      const expired = await app.call(
        `/v3/new/monitor/share/view?token=${token}`,
        undefined,
        undefined,
        "GET",
      );
      assert.equal(expired.json.code, 44001);
      assert.equal(expired.json.msg, "This share link has expired.");
      const expiredStream = await app.call(`/v3/new/monitor/share/stream?token=${token}`);
      assert.equal(expiredStream.json.code, 44001);
      const unknown = await app.call(`/v3/new/monitor/share/view?token=nope-nope-nope`);
      assert.equal(unknown.json.code, 44004);
    });

    await t.step("share links are listed and revoked by the owner side only", async () => {
      const list = await app.call("/v3/new/monitor/share/list", { imei: imeis.a1 }, tokenA);
      assert.equal(list.json.data.length, 3);
      assert.ok(list.json.data.some((l: { expired: boolean }) => l.expired));
      const token = list.json.data.find((l: { expired: boolean }) => !l.expired).token;
      const foreign = await app.call("/v3/new/monitor/share/revoke", { token }, tokenB);
      assert.equal(foreign.json.code, 42012);
      const ok = await app.call("/v3/new/monitor/share/revoke", { token }, tokenA);
      assert.equal(ok.json.code, 10000);
      const gone = await app.call(`/v3/new/monitor/share/view?token=${token}`);
      assert.equal(gone.json.code, 44004);
    });
  } finally {
    await app.close();
  }
});
