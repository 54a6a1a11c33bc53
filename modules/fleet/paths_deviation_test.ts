/**
 * A GT06 device over TCP drives along a planned route, off it and back, against the real
 * server process: "route deviation" and "back on route" reach the alert list and the mail
 * (a real SMTP server).
 */
import assert from "node:assert/strict";
import { alertMailTo, enterpriseWithDevices } from "../../tests/helpers/fleet.ts";
import { gt06Heartbeat, gt06Location, gt06Login } from "../../tests/helpers/gt06_frames.ts";
import { RawDevice } from "../../tests/helpers/raw_device.ts";
import { freePort, startServer } from "../../tests/helpers/server.ts";
import { mailText, smtpEnv, startSmtp } from "../../tests/helpers/smtp.ts";
import { offsetPoint } from "./paths_test_support.ts";

const ADMIN_PASSWORD = "Admin12345";
const PASSWORD = "Passw0rd11";
const IMEI = "359710049410001";
const START = { lat: 22.5431, lng: 114.0579 };

/** An enterprise with the device and a verified alert mail address for route alerts. */
async function enterpriseWithMail(url: string, smtp: Awaited<ReturnType<typeof startSmtp>>) {
  const { ent } = await enterpriseWithDevices(url, {
    adminPassword: ADMIN_PASSWORD,
    account: "route_ent",
    nickName: "Route Co",
    password: PASSWORD,
    imeis: [IMEI],
  });
  await alertMailTo(ent, smtp, "dispatch@route.test", ["routeDeviation", "routeReturn"]);
  return ent;
}

Deno.test({
  name: "route deviation: a GT06 vehicle leaves its corridor for > minOffMinutes, then returns",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const smtp = await startSmtp();
    const gt06 = freePort();
    const server = await startServer({
      ADMIN_PASSWORD,
      GT06_PORT: String(gt06),
      ...smtpEnv(smtp),
    });
    try {
      const ent = await enterpriseWithMail(server.url, smtp);
      const end = offsetPoint(START.lat, START.lng, 8000);
      const { id } = await ent.call("/v3/new/fleet/route/add", {
        name: "Depot run",
        points: [START, end],
        offset: 150,
        weekdays: [1, 2, 3, 4, 5, 6, 7],
        startTime: "00:00",
        endTime: "23:59",
        minOffMinutes: 1,
        imeis: [IMEI],
      });
      assert.ok(id);

      const device = await RawDevice.open(gt06);
      await device.send(gt06Login(IMEI, 1));
      await device.take(10);
      const t0 = Math.floor(Date.now() / 1000) * 1000 - 10 * 60_000; // GT06 times are whole seconds
      // Along the line, 1.2 km north of it for 90 s, back on the line.
      const drive: [number, number, number][] = [
        [0, 1000, 0],
        [30, 2000, 0],
        [60, 2500, 1200],
        [90, 3000, 1200],
        [150, 3500, 1200],
        [180, 4000, 20],
        [210, 4500, 0],
      ];
      let serial = 2;
      for (const [s, east, north] of drive) {
        const p = offsetPoint(START.lat, START.lng, east, north);
        await device.send(gt06Location({
          time: new Date(t0 + s * 1000),
          lat: p.lat,
          lng: p.lng,
          speedKmh: 50,
          course: 90,
        }, serial++));
      }
      // GT06 locations are not acknowledged: the heartbeat's reply says all before it is stored.
      await device.send(gt06Heartbeat(serial));
      await device.take(10, 30_000);

      const mails = await smtp.waitFor(3);
      // The two alert mails go out one after the other but may arrive in either order.
      const subject = (m: { subject: string }) => m.subject.replace(/ — .*/, "");
      const alertMails = mails.slice(1).sort((a, b) => subject(b).localeCompare(subject(a)));
      assert.deepEqual(alertMails.map(subject), [
        "[Alert] Route deviation",
        "[Alert] Back on route",
      ]);
      assert.match(mailText(alertMails[0].raw), /Route: Depot run/);
      assert.deepEqual(alertMails[0].to, ["dispatch@route.test"]);

      const list = await ent.call("/v3/new/alarm/list", {
        imeis: [IMEI],
        startTime: new Date(t0 - 60_000).toISOString(),
        endTime: new Date().toISOString(),
        pageSize: 50,
      });
      const route = (list.list as { type: string; time: number; detail: Record<string, unknown> }[])
        .filter((a) => a.type.startsWith("route")).sort((a, b) => a.time - b.time);
      assert.deepEqual(route.map((a) => a.type), ["routeDeviation", "routeReturn"]);
      // Off since +60 s, raised at the first fix a minute later (+150 s), back at +180 s.
      assert.equal(route[0].time, t0 + 150_000);
      assert.equal(route[0].detail.route, "Depot run");
      assert.ok(
        Math.abs(Number(route[0].detail.metres) - 1200) < 20,
        String(route[0].detail.metres),
      );
      assert.equal(route[1].time, t0 + 180_000);
      // The data board counts today's deviations and the reminders (none here).
      const board = await ent.call("/v3/new/fleet/board", {});
      const midnight = Date.now() - Date.now() % 86_400_000;
      assert.equal(board.deviationsToday, route[0].time >= midnight ? 1 : 0);
      assert.deepEqual(board.reminders, { due: 0, overdue: 0 });
      await device.done();
    } catch (e) {
      console.log(server.output().slice(-3000));
      throw e;
    } finally {
      await server.stop();
      await smtp.close();
    }
  },
});
