/**
 * The embeddable map against a real server process with a real GT06 device: an embed key
 * shows the account's device without login; /iframe may be framed only by the origins the
 * owner set (CSP frame-ancestors, no X-Frame-Options) while every other page keeps refusing
 * framing; a share link's /iframe takes its creator's origins; revoking a key, or the
 * account's expiry, ends the map.
 */
import assert from "node:assert/strict";
import { startServer } from "../../tests/helpers/server.ts";
import { ApiClient } from "../../tests/helpers/api_client.ts";
import { devicePorts, importDevices, trackLocation } from "../../tests/helpers/gateway.ts";
import { RawDevice } from "../../tests/helpers/raw_device.ts";
import { gt06Heartbeat, gt06Login } from "../../tests/helpers/gt06_frames.ts";
import { CATALOGUE } from "../../lib/errors.ts";
import { testApp } from "../../tests/helpers/harness.ts";
import { addAccount, addVirtual, PASSWORD } from "../accounts/test_support.ts";

const ADMIN_PASSWORD = "Admin12345";
const IMEI = "359710049880012";

async function page(url: string) {
  const res = await fetch(url);
  const html = await res.text();
  return {
    status: res.status,
    html,
    csp: res.headers.get("content-security-policy") ?? "",
    xfo: res.headers.get("x-frame-options"),
  };
}

Deno.test({
  name: "embed: key map without login, framing only by the owner's origins, revoke and expiry",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async (t) => {
    const server = await startServer({ ADMIN_PASSWORD });
    try {
      const admin = await importDevices(server, ADMIN_PASSWORD, [IMEI]);
      const device = await RawDevice.open(devicePorts(server).gt06);
      await device.send(gt06Login(IMEI, 1));
      await device.take(10);
      await device.send(trackLocation(0));
      // The heartbeat's answer comes after the location was handled.
      await device.send(gt06Heartbeat(12));
      await device.take(10);
      await device.done();
      let key = "";

      await t.step("origins are checked; a key is made", async () => {
        const bad = await admin.raw("/v3/new/embed/origins", { origins: ["javascript:alert(1)"] });
        assert.equal(bad.code, CATALOGUE.illegalParameter);
        const withPath = await admin.raw("/v3/new/embed/origins", {
          origins: ["https://fleet.example.com/page"],
        });
        assert.equal(withPath.code, CATALOGUE.illegalParameter);
        const set = await admin.call("/v3/new/embed/origins", {
          origins: ["https://Fleet.Example.com/", "http://localhost:3000"],
        });
        assert.deepEqual(set.origins, ["https://fleet.example.com", "http://localhost:3000"]);
        const made = await admin.call("/v3/new/embed/createKey", { label: "Website" });
        assert.equal(made.keys.length, 1);
        key = made.keys[0].key;
      });

      await t.step("the key's map answers without login, positions included", async () => {
        const anon = new ApiClient(server.url);
        const objects = await anon.call(`/v3/new/embed/objects?key=${key}`);
        assert.deepEqual(objects.imei, [IMEI]);
        assert.equal(objects.lat[0], 22.5);
        assert.equal(objects.lng[0], 114.05);
        assert.equal(objects.facts, undefined);
        const wrong = await anon.raw(`/v3/new/embed/objects?key=${"x".repeat(32)}`);
        assert.equal(wrong.code, CATALOGUE.embedKeyInvalid);
      });

      await t.step("only /iframe may be framed, by the owner's origins", async () => {
        const iframe = await page(`${server.url}/iframe?key=${key}`);
        assert.equal(iframe.status, 200);
        assert.equal(iframe.xfo, null);
        assert.match(
          iframe.csp,
          /frame-ancestors 'self' https:\/\/fleet\.example\.com http:\/\/localhost:3000;/,
        );
        assert.ok(iframe.html.includes("embed/EmbedMap"));
        assert.ok(!iframe.html.includes('class="topbar"'), "no console chrome");
        for (const other of ["/login", "/accountApply", "/monitorShare?token=x"]) {
          const p = await page(`${server.url}${other}`);
          assert.equal(p.xfo, "SAMEORIGIN", other);
          assert.match(p.csp, /frame-ancestors 'self';/, other);
        }
      });

      await t.step("a share link's /iframe takes its creator's origins", async () => {
        const link = await admin.call("/v3/new/monitor/share/create", { imei: IMEI, hours: 1 });
        const token = new URL(link.url, server.url).searchParams.get("token");
        const p = await page(`${server.url}/iframe?token=${token}`);
        assert.equal(p.status, 200);
        assert.match(p.csp, /frame-ancestors 'self' https:\/\/fleet\.example\.com/);
        assert.ok(p.html.includes("monitor/LiveDevice"));
      });

      await t.step("revoked: the map and its page stop at once", async () => {
        await admin.call("/v3/new/embed/revokeKey", { key });
        const anon = new ApiClient(server.url);
        assert.equal(
          (await anon.raw(`/v3/new/embed/objects?key=${key}`)).code,
          CATALOGUE.embedKeyInvalid,
        );
        const p = await page(`${server.url}/iframe?key=${key}`);
        assert.equal(p.status, 404);
        assert.match(p.csp, /frame-ancestors 'self';/);
        assert.ok(p.html.includes("embed-refusal"));
      });
    } finally {
      await server.stop();
    }
  },
});

Deno.test("embed: an expired account's key and share links open nothing; a virtual account cannot publish", async () => {
  const app = await testApp();
  try {
    const admin = await app.adminToken();
    await addAccount(app, admin, { account: "trial_embed", parentId: "1", accountType: 12 });
    const trial = await app.login("trial_embed", PASSWORD);
    const made = await app.call("/v3/new/embed/createKey", { label: "" }, trial);
    const key = made.json.data.keys[0].key;
    const open = await app.call(`/v3/new/embed/objects?key=${key}`);
    assert.equal(open.json.code, 10000);
    const id = (await app.services.accountStore.findIdByLogin("trial_embed"))!;
    const imported = await app.call("/v3/new/newEquipment/importEquipment", {
      userId: id,
      mcType: "GT06N",
      imeis: ["359710049880038"],
    }, admin);
    assert.equal(imported.json.data.succeeded, 1, JSON.stringify(imported.json));
    const link = await app.call(
      "/v3/new/monitor/share/create",
      { imei: "359710049880038", hours: 24 },
      trial,
    );
    const token = new URL(link.json.data.url, "http://x").searchParams.get("token");
    assert.equal((await app.call(`/v3/new/monitor/share/view?token=${token}`)).json.code, 10000);
    const account = (await app.services.accountStore.get(id))!;
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    await app.services.accountStore.update({ ...account, expiration: yesterday });
    const closed = await app.call(`/v3/new/embed/objects?key=${key}`);
    assert.equal(closed.json.code, CATALOGUE.embedKeyInvalid);
    // Its devices' share links end with it too.
    const shared = await app.call(`/v3/new/monitor/share/view?token=${token}`);
    assert.equal(shared.json.code, CATALOGUE.shareLinkExpired);

    await addVirtual(app, admin, "viewer_embed");
    const viewer = await app.login("viewer_embed", PASSWORD);
    const refused = await app.call("/v3/new/embed/createKey", { label: "" }, viewer);
    assert.equal(refused.json.code, CATALOGUE.permissionDenied);
  } finally {
    await app.close();
  }
});
