/**
 * The Open API frame on a real server process (issue 22, O1): app keys through the console
 * API, a client written from the public Tracksolid description (not from our code) that
 * signs its calls, gets and refreshes a token, manages child accounts, and meets every frame
 * refusal; the key's access token on the REST API within its scope; revocation; the shared
 * login attempt limits; the rate limits; the secret sealed at rest.
 */
import assert from "node:assert/strict";
import { startServer } from "../../tests/helpers/server.ts";
import { md5, OpenClient } from "../../tests/helpers/open_client.ts";
import { ApiClient } from "../../tests/helpers/api_client.ts";
import { CATALOGUE } from "../../lib/errors.ts";
import { openTestKv } from "../../tests/helpers/test_kv.ts";
import { PgBlobStore } from "../../lib/blobs/pg.ts";
import { SECRET_KEY_BLOB } from "./secret_box.ts";

const ADMIN_PASSWORD = "Admin12345";
const PASSWORD = "Passw0rd11";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function bearer(url: string, token: string, path: string, body?: unknown) {
  const res = await fetch(`${url}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

Deno.test({
  name: "open api frame: keys, signature, tokens, child accounts, scope, limits on a real server",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async (t) => {
    const server = await startServer({
      ADMIN_PASSWORD,
      OPENAPI_KEY_RATE: "20",
      OPENAPI_KEY_BURST: "30",
      OPENAPI_IP_RATE: "80",
    });
    const url = server.url;
    let full!: OpenClient, read!: OpenClient;
    try {
      const admin = await ApiClient.login(url, "admin", ADMIN_PASSWORD);
      const me = await admin.call("/v3/new/account/current");
      const mk = async (client: ApiClient, account: string, parentId: string, accountType = 8) =>
        (await client.call("/v3/new/account/add", {
          account,
          nickName: account,
          password: PASSWORD,
          accountType,
          parentId,
        })).id as string;
      const distId = await mk(admin, "fr_dist", me.userId);
      await mk(admin, "fr_other", me.userId);
      await mk(admin, "fr_lock", distId, 12);
      const dist = await ApiClient.login(url, "fr_dist", PASSWORD);
      const kidId = await mk(dist, "fr_kid", distId, 12);

      await t.step("keys: created with the secret once, listed masked", async () => {
        const k = await dist.call("/v3/new/openapi/key/create", {
          name: "erp",
          scope: ["read", "commands", "manage"],
        });
        assert.match(k.appKey, /^[0-9A-F]{32}$/);
        assert.match(k.appSecret, /^[0-9a-f]{32}$/);
        full = new OpenClient(url, k.appKey, k.appSecret);
        const r = await dist.call("/v3/new/openapi/key/create", {
          name: "reader",
          scope: ["read"],
          expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
        });
        read = new OpenClient(url, r.appKey, r.appSecret);
        const list = await dist.call("/v3/new/openapi/key/list", {});
        assert.equal(list.length, 2);
        const row = list.find((x: { appKey: string }) => x.appKey === k.appKey);
        assert.equal(row.secretMasked, `••••••••${k.appSecret.slice(-4)}`);
        assert.ok(!JSON.stringify(list).includes(k.appSecret));
        assert.equal(row.status, "active");
        assert.deepEqual(row.scope, ["read", "commands", "manage"]);
        // Another account sees none of them and cannot revoke them.
        const other = await ApiClient.login(url, "fr_other", PASSWORD);
        assert.deepEqual(await other.call("/v3/new/openapi/key/list", {}), []);
        const refused = await other.raw("/v3/new/openapi/key/revoke", { appKey: k.appKey });
        assert.notEqual(refused.code, 10000);
        // An expiry in the past is refused.
        const past = await dist.raw("/v3/new/openapi/key/create", {
          name: "old",
          scope: ["read"],
          expiresAt: "2020-01-01T00:00:00Z",
        });
        assert.notEqual(past.code, 10000);
      });

      await t.step("token.get with the password's MD5; refresh ends the old token", async () => {
        const r = await full.token("fr_dist", PASSWORD);
        assert.equal(r.code, 0, JSON.stringify(r));
        assert.equal(r.result.appKey, full.appKey);
        assert.equal(r.result.account, "fr_dist");
        assert.equal(r.result.expiresIn, 7200);
        assert.match(r.result.time, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
        const old = r.result.accessToken;
        const refreshed = await full.call("jimi.oauth.token.refresh", {
          refresh_token: r.result.refreshToken,
          expires_in: "600",
        });
        assert.equal(refreshed.code, 0, JSON.stringify(refreshed));
        assert.equal(refreshed.result.expiresIn, 600);
        assert.notEqual(refreshed.result.accessToken, old);
        // The refresh token is used up; the old access token is over.
        const again = await full.call("jimi.oauth.token.refresh", {
          refresh_token: r.result.refreshToken,
          expires_in: "600",
        });
        assert.equal(again.code, 1004);
        full.accessToken = old;
        assert.equal((await full.call("jimi.user.child.list")).code, 1004);
        full.accessToken = refreshed.result.accessToken;
        assert.equal((await full.call("jimi.user.child.list")).code, 0);
        // expires_in outside 60-7200 is a parameter error.
        const bad = await full.call("jimi.oauth.token.get", {
          user_id: "fr_dist",
          user_pwd_md5: md5(PASSWORD),
          expires_in: "59",
        });
        assert.equal(bad.code, 1001);
        assert.match(bad.message, /expires_in/);
      });

      await t.step("child accounts: list, create, update, move, delete", async () => {
        const list = await full.call("jimi.user.child.list");
        assert.deepEqual(list.result.map((a: { account: string }) => a.account), [
          "fr_kid",
          "fr_lock",
        ]);
        const created = await full.call("jimi.user.child.create", {
          account: "fr_api_kid",
          password: PASSWORD,
          type: "12",
          name: "API kid",
          email: "kid@example.com",
        });
        assert.equal(created.code, 0, JSON.stringify(created));
        const dealer = await full.call("jimi.user.child.create", {
          account: "fr_api_dealer",
          password: PASSWORD,
          type: "8",
        });
        assert.equal(dealer.code, 0, JSON.stringify(dealer));
        // The console's rules: a weak password and a taken login are refused.
        const weak = await full.call("jimi.user.child.create", {
          account: "fr_weak",
          password: "short",
          type: "12",
        });
        assert.equal(weak.code, 1001);
        const taken = await full.call("jimi.user.child.create", {
          account: "fr_other",
          password: PASSWORD,
          type: "12",
        });
        assert.equal(taken.code, 1100);
        const upd = await full.call("jimi.user.child.update", {
          account: "fr_api_kid",
          name: "Renamed kid",
        });
        assert.equal(upd.code, 0, JSON.stringify(upd));
        const moved = await full.call("jimi.user.child.move", {
          accounts: "fr_api_kid",
          target: "fr_api_dealer",
        });
        assert.equal(moved.code, 0, JSON.stringify(moved));
        const under = await full.call("jimi.user.child.list", { target: "fr_api_dealer" });
        assert.equal(under.result.length, 1);
        assert.equal(under.result[0].account, "fr_api_kid");
        assert.equal(under.result[0].name, "Renamed kid");
        assert.equal(under.result[0].type, 12);
        const del = await full.call("jimi.user.child.del", { account: "fr_api_kid" });
        assert.equal(del.code, 0, JSON.stringify(del));
        const after = await full.call("jimi.user.child.list", { target: "fr_api_dealer" });
        assert.deepEqual(after.result, []);
      });

      await t.step("1002: an account of another subtree", async () => {
        assert.equal((await full.call("jimi.user.child.list", { target: "fr_other" })).code, 1002);
        const c = await full.call("jimi.user.child.create", {
          target: "fr_other",
          account: "fr_intruder",
          password: PASSWORD,
          type: "12",
        });
        assert.equal(c.code, 1002);
        assert.equal((await full.call("jimi.user.child.del", { account: "admin" })).code, 1002);
        const probe = new OpenClient(url, full.appKey, full.secret);
        assert.equal((await probe.token("fr_other", PASSWORD)).code, 1002);
        assert.equal((await probe.token("nobody_here", PASSWORD)).code, 1002);
        // An account of the key owner's subtree: the token acts as that account.
        const kid = await probe.token("fr_kid", PASSWORD);
        assert.equal(kid.code, 0, JSON.stringify(kid));
        assert.equal(kid.result.account, "fr_kid");
        const cur = await bearer(url, probe.accessToken, "/v3/new/account/current");
        assert.equal(cur.body.data.account, "fr_kid");
      });

      await t.step("1001: bad sign, stale timestamp, unsigned; 1007, 1008, 1004", async () => {
        const p = full.params("jimi.user.child.list", {});
        const badSign = await full.post({
          ...p,
          sign: p.sign.replace(/^./, (x) => x === "A" ? "B" : "A"),
        });
        assert.equal(badSign.code, 1001);
        assert.match(badSign.message, /sign/);
        const stale = await full.post(
          full.params("jimi.user.child.list", {}, Date.now() - 11 * 60_000),
        );
        assert.equal(stale.code, 1001);
        assert.match(stale.message, /timestamp/);
        const future = await full.post(
          full.params("jimi.user.child.list", {}, Date.now() + 11 * 60_000),
        );
        assert.equal(future.code, 1001);
        // Within 10 minutes is fine.
        assert.equal(
          (await full.post(full.params("jimi.user.child.list", {}, Date.now() - 9 * 60_000))).code,
          0,
        );
        // A parameter added after signing breaks the signature.
        const tampered = await full.post({ ...p, target: "fr_other" });
        assert.equal(tampered.code, 1001);
        // Empty values are left out of the signature (as the public Java reference does).
        const withEmpty = full.params("jimi.user.child.list", { target: "" });
        assert.equal((await full.post(withEmpty)).code, 0);
        // v=0.9 unsigned is refused (OPENAPI_ALLOW_UNSIGNED is off).
        const { sign: _s, ...unsigned } = full.params("jimi.user.child.list", { v: "0.9" });
        const u = await full.post(unsigned);
        assert.equal(u.code, 1001);
        assert.match(u.message, /unsigned/);
        // JSON bodies are accepted.
        assert.equal((await full.post(full.params("jimi.user.child.list", {}), true)).code, 0);
        const unknownKey = new OpenClient(url, "0123456789ABCDEF0123456789ABCDEF", full.secret);
        assert.equal((await unknownKey.call("jimi.user.child.list")).code, 1007);
        const m = await full.call("jimi.no.such.method");
        assert.equal(m.code, 1008);
        const tok = new OpenClient(url, full.appKey, full.secret);
        tok.accessToken = "f".repeat(64);
        assert.equal((await tok.call("jimi.user.child.list")).code, 1004);
        // A token of another key is refused with this key.
        read.accessToken = "";
        assert.equal((await read.token("fr_dist", PASSWORD)).code, 0);
        tok.accessToken = read.accessToken;
        assert.equal((await tok.call("jimi.user.child.list")).code, 1004);
        // Missing common parameter.
        const { timestamp: _t, ...noTime } = full.params("jimi.user.child.list", {});
        const nt = await full.post(noTime);
        assert.equal(nt.code, 1001);
        assert.match(nt.message, /timestamp/);
      });

      await t.step(
        "scope: a read key cannot create children (1003) nor write through REST",
        async () => {
          assert.equal((await read.call("jimi.user.child.list")).code, 0);
          const c = await read.call("jimi.user.child.create", {
            account: "fr_read_kid",
            password: PASSWORD,
            type: "12",
          });
          assert.equal(c.code, 1003);
          // The same token on the REST API: reads pass, account management and own keys do not.
          const cur = await bearer(url, read.accessToken, "/v3/new/account/current");
          assert.equal(cur.body.code, 10000);
          assert.equal(cur.body.data.account, "fr_dist");
          const add = await bearer(url, read.accessToken, "/v3/new/account/add", {
            account: "fr_rest_kid",
            nickName: "Rest kid",
            password: PASSWORD,
            accountType: 12,
            parentId: distId,
          });
          assert.equal(add.body.code, CATALOGUE.permissionDenied, JSON.stringify(add.body));
          const keys = await bearer(url, read.accessToken, "/v3/new/openapi/key/list", {});
          assert.equal(keys.body.code, CATALOGUE.permissionDenied);
          // The full key's token may add an account through REST.
          const ok = await bearer(url, full.accessToken, "/v3/new/account/add", {
            account: "fr_rest_kid",
            nickName: "Rest kid",
            password: PASSWORD,
            accountType: 12,
            parentId: distId,
          });
          assert.equal(ok.body.code, 10000, JSON.stringify(ok.body));
        },
      );

      await t.step("token.get shares the login attempt limits", async () => {
        const c = new OpenClient(url, full.appKey, full.secret);
        for (let i = 0; i < 5; i++) {
          assert.equal((await c.token("fr_lock", "Wrong0pass" + i)).code, 1002);
        }
        // Past the limit even the right password is refused for the window.
        assert.equal((await c.token("fr_lock", PASSWORD)).code, 1006);
      });

      await t.step("revocation ends signed calls and the key's tokens at once", async () => {
        const keyOf = (await dist.call("/v3/new/openapi/key/list", {})).find((
          k: { name: string },
        ) => k.name === "reader");
        assert.ok(keyOf.lastUsedAt, "last use shown");
        await dist.call("/v3/new/openapi/key/revoke", { appKey: read.appKey });
        assert.equal((await read.call("jimi.user.child.list")).code, 1007);
        const rest = await bearer(url, read.accessToken, "/v3/new/account/current");
        assert.equal(rest.status, 401);
        const row = (await dist.call("/v3/new/openapi/key/list", {})).find((
          k: { appKey: string },
        ) => k.appKey === read.appKey);
        assert.equal(row.status, "revoked");
      });

      await t.step("a token ends when its account may no longer log in", async () => {
        const kid = new OpenClient(url, full.appKey, full.secret);
        assert.equal((await kid.token("fr_kid", PASSWORD)).code, 0);
        assert.equal((await bearer(url, kid.accessToken, "/v3/new/account/current")).status, 200);
        // Web login taken away (the password, and so the session version, stays the same).
        await dist.call("/v3/new/account/update", { id: kidId, permissions: { webLogin: 0 } });
        assert.equal((await bearer(url, kid.accessToken, "/v3/new/account/current")).status, 401);
        assert.equal((await kid.call("jimi.user.child.list")).code, 1004);
      });

      await t.step(
        "rate limits: 1006 past the key's burst, 1005 past the address's rate",
        async () => {
          await sleep(1600); // the key's bucket refills
          const burst = await Promise.all(
            Array.from({ length: 70 }, () => full.call("jimi.user.child.list")),
          );
          const codes = burst.map((r) => r.code);
          // 70 calls at once (under the address's 80/s) against a burst of 30 refilling 20/s:
          // all would pass only if they took 2 s. Some are refused, every other one answers.
          assert.ok(codes.some((c) => c === 1006), codes.join(","));
          assert.ok(codes.every((c) => c === 0 || c === 1006), codes.join(","));
          assert.ok(codes.filter((c) => c === 0).length >= 25, codes.join(","));
          // The key's token on the REST API draws on the same bucket: past it, HTTP 429.
          await sleep(1600);
          const rest = await Promise.all(
            Array.from(
              { length: 70 },
              () => bearer(url, full.accessToken, "/v3/new/account/current"),
            ),
          );
          const statuses = rest.map((r) => r.status);
          assert.ok(statuses.includes(429), statuses.join(","));
          assert.ok(statuses.every((s) => s === 200 || s === 429), statuses.join(","));
          assert.equal(rest.find((r) => r.status === 429)!.body.code, CATALOGUE.openTooFrequent);
          await sleep(1100);
          const flood = await Promise.all(
            Array.from({ length: 200 }, () => full.call("jimi.no.such.method")),
          );
          assert.ok(flood.some((r) => r.code === 1005), flood.map((r) => r.code).join(","));
        },
      );
    } finally {
      await server.stop();
    }

    await t.step("the secret is sealed at rest (not in the store)", async () => {
      const kv = await openTestKv(`${server.dataDir}/tracking.kv`);
      try {
        let keys = 0;
        for await (const e of kv.list({ prefix: ["openapi", "key"] })) {
          keys++;
          const text = JSON.stringify(e.value);
          assert.ok(!text.includes(full.secret) && !text.includes(read.secret));
        }
        assert.equal(keys, 2);
      } finally {
        kv.close();
      }
      if (server.databaseUrl) {
        // Cluster mode: the key is a blob of the `blobs` schema, apart from the modules' ones.
        const blobs = new PgBlobStore(server.databaseUrl);
        try {
          assert.equal((await blobs.bytes(SECRET_KEY_BLOB))?.length, 32);
        } finally {
          await blobs.close();
        }
        return;
      }
      const keyFile = await Deno.stat(`${server.dataDir}/openapi/secret.key`);
      assert.equal(keyFile.size, 32);
      assert.equal(keyFile.mode! & 0o077, 0);
    });
  },
});
