import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { testApp } from "../../tests/helpers/harness.ts";
import { accountWithDevices } from "../../tests/helpers/alerting.ts";
import { maskEmail } from "./recovery.ts";
import { sign } from "./webhook.ts";

Deno.test("webhook signature is hex HMAC-SHA256 over timestamp.body (matches node:crypto)", async () => {
  const body = JSON.stringify({ a: 1 });
  const expected = createHmac("sha256", "k3y").update(`1700000000.${body}`).digest("hex");
  assert.equal(await sign("k3y", "1700000000", body), expected);
  assert.equal(maskEmail("jane.doe@example.com"), "ja***@example.com");
});

Deno.test("message center: own messages only, type and read filters, mark read/unread, paging", async () => {
  const app = await testApp();
  try {
    const a = await accountWithDevices(app, "msg_a", []);
    const b = await accountWithDevices(app, "msg_b", []);
    for (let i = 0; i < 12; i++) {
      await app.services.messages.post(a.id, i % 2 ? 2 : 11, {
        imei: `35971004950000${i % 10}`,
        minutes: 15,
      });
    }
    await app.services.messages.post(b.id, 1, { imei: "359710049500001" });
    const list = (q: Record<string, unknown>, token = a.token) =>
      app.call("/v3/new/message/list", q, token).then((r) => r.json);
    const all = await list({});
    assert.equal(all.data.total, 12);
    assert.equal(all.data.unread, 12);
    assert.equal(all.data.list.length, 10);
    assert.equal((await list({ pageNum: 2 })).data.list.length, 2);
    assert.equal((await list({ type: 2 })).data.total, 6);
    assert.equal((await list({ type: 3 })).code, 49004); // not a message type
    assert.equal((await list({}, b.token)).data.total, 1);
    const first = all.data.list[0];
    await app.call("/v3/new/message/mark", { ids: [first.id], read: 0 }, a.token);
    assert.equal((await list({ read: 0 })).data.total, 1);
    assert.equal((await list({ read: -1 })).data.total, 11);
    await app.call("/v3/new/message/mark", { read: 0 }, a.token);
    assert.equal((await list({})).data.unread, 0);
    await app.call("/v3/new/message/mark", { ids: [first.id], read: -1 }, a.token);
    assert.equal((await list({ read: -1 })).data.total, 1);
    // Another account's ids change nothing.
    const other = await app.call("/v3/new/message/mark", { ids: [first.id], read: 0 }, b.token);
    assert.equal(other.json.data.changed, 0);
  } finally {
    await app.close();
  }
});
