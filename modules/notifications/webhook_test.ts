/**
 * Webhooks cannot reach internal addresses: every non-public class of address is refused when
 * the webhook is saved (through the real settings route) and when it is delivered (the call
 * never reaches a loopback receiver), unless WEBHOOK_ALLOW_PRIVATE=on.
 */
import assert from "node:assert/strict";
import { CATALOGUE } from "../../lib/errors.ts";
import { loadConfig } from "../../lib/config.ts";
import { addressClass } from "../../lib/net/public_address.ts";
import { testApp } from "../../tests/helpers/harness.ts";
import { WebhookSender } from "./webhook.ts";
import { WebhookLogStore } from "./webhook_store.ts";
import { openTestKv } from "../../tests/helpers/test_kv.ts";

/** One address of every refused class, as a URL would carry it. */
const REFUSED: [string, string][] = [
  ["http://127.0.0.1:8000/hook", "loopback"],
  ["http://127.8.9.10/", "loopback"],
  ["http://[::1]:5055/", "loopback"],
  ["http://localhost:8000/", "loopback"],
  ["http://api.localhost/", "loopback"],
  ["http://2130706433/", "loopback"], // 127.0.0.1 written as one number
  ["http://0x7f.1/", "loopback"],
  ["http://[::ffff:127.0.0.1]/", "loopback"],
  ["http://[::ffff:7f00:1]/", "loopback"],
  ["http://[64:ff9b::a00:1]/", "private"], // NAT64 of 10.0.0.1
  ["http://[2002:c0a8:101::1]/", "private"], // 6to4 of 192.168.1.1
  ["http://10.1.2.3/", "private"],
  ["http://172.16.0.1/", "private"],
  ["http://172.31.255.254/", "private"],
  ["http://192.168.1.1/", "private"],
  ["http://[fc00::1]/", "private"],
  ["http://[fd12:3456::1]/", "private"],
  ["http://169.254.1.1/", "linkLocal"],
  ["http://[fe80::1]/", "linkLocal"],
  ["http://100.64.0.1/", "sharedNat"],
  ["http://100.127.255.255/", "sharedNat"],
  ["http://0.0.0.0:8000/", "thisNetwork"],
  ["http://0.1.2.3/", "thisNetwork"],
  ["http://[::]/", "thisNetwork"],
  ["http://224.0.0.1/", "multicast"],
  ["http://[ff02::1]/", "multicast"],
  ["http://240.0.0.1/", "reserved"],
  ["http://255.255.255.255/", "reserved"],
  ["http://169.254.169.254/latest/meta-data/", "metadata"],
  ["http://[fd00:ec2::254]/", "metadata"],
];

const PUBLIC = [
  "8.8.8.8",
  "1.1.1.1",
  "93.184.215.14",
  "172.32.0.1",
  "100.128.0.1",
  "2606:4700::1111",
];

Deno.test("address classes: every internal class is named, public addresses are not", () => {
  for (const [url, cls] of REFUSED) {
    const host = new URL(url).hostname;
    if (/localhost/.test(host)) continue; // a name, resolved by resolveHost
    assert.equal(addressClass(host), cls, url);
  }
  for (const ip of PUBLIC) assert.equal(addressClass(ip), null, ip);
  assert.equal(addressClass("not-an-address"), "reserved");
});

Deno.test("config: WEBHOOK_ALLOW_PRIVATE is off unless set", () => {
  assert.equal(loadConfig({}).WEBHOOK_ALLOW_PRIVATE, "off");
  assert.equal(loadConfig({ WEBHOOK_ALLOW_PRIVATE: "on" }).WEBHOOK_ALLOW_PRIVATE, "on");
  assert.throws(() => loadConfig({ WEBHOOK_ALLOW_PRIVATE: "yes" }), /WEBHOOK_ALLOW_PRIVATE/);
});

async function settingsWith(t: Awaited<ReturnType<typeof testApp>>, token: string, url: string) {
  const base = (await t.call("/v3/new/alarm/settings/get", {}, token)).json.data;
  return await t.call("/v3/new/alarm/settings/save", {
    ...base,
    userId: undefined,
    webhook: { enabled: true, url, secret: "s3cret", types: ["sos"] },
  }, token);
}

Deno.test("saving a webhook refuses every internal address class", async () => {
  const t = await testApp();
  try {
    const token = await t.adminToken();
    for (const [url, cls] of REFUSED) {
      const r = await settingsWith(t, token, url);
      assert.equal(r.json.code, CATALOGUE.webhookAddressRefused, `${cls} ${url}: ${r.json.msg}`);
      assert.match(r.json.msg, /private or internal network/);
    }
    // A public address is saved (nothing is called at save time).
    const ok = await settingsWith(t, token, "https://93.184.215.14/hooks/fleet");
    assert.equal(ok.json.code, 10000, ok.json.msg);
  } finally {
    await t.close();
  }
});

Deno.test("WEBHOOK_ALLOW_PRIVATE=on saves a loopback webhook", async () => {
  const t = await testApp({ WEBHOOK_ALLOW_PRIVATE: "on" });
  try {
    const r = await settingsWith(t, await t.adminToken(), "http://127.0.0.1:8000/hook");
    assert.equal(r.json.code, 10000, r.json.msg);
  } finally {
    await t.close();
  }
});

Deno.test("delivery to an internal address is refused unless allowed, and never reaches it", async () => {
  let hits = 0;
  const receiver = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen: () => {} },
    async (req) => {
      hits++;
      await req.text();
      return new Response("secret internal service", { status: 200 });
    },
  );
  const dir = await Deno.makeTempDir({ prefix: "tp-webhook-" });
  const kv = await openTestKv(`${dir}/tracking.kv`);
  try {
    const url = `http://127.0.0.1:${receiver.addr.port}/hook`;
    const named = `http://localhost:${receiver.addr.port}/hook`;
    const closed = new WebhookSender(new WebhookLogStore(kv), 5, false);
    for (const target of [url, named]) {
      const log = await closed.deliver("u1", target, "s", "alert", { n: 1 });
      assert.equal(log.ok, false);
      // Refused once, not retried, and no status of the internal service is recorded.
      assert.deepEqual(
        log.attempts.map((a) => ({ status: a.status, error: a.error })),
        [{ status: null, error: "webhookAddressRefused" }],
      );
    }
    assert.equal(hits, 0, "the loopback receiver was never called");
    const stored = await closed.logs("u1");
    assert.equal(stored.length, 2);

    // Allowed: the same receiver is called through the checked address and answers.
    const open = new WebhookSender(new WebhookLogStore(kv), 5, true);
    const log = await open.deliver("u1", url, "s", "alert", { n: 2 });
    assert.equal(log.ok, true, JSON.stringify(log.attempts));
    assert.equal(log.attempts[0].status, 200);
    assert.equal(hits, 1);
  } finally {
    kv.close();
    await receiver.shutdown();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
});
