import assert from "node:assert/strict";
import { testApp } from "../../tests/helpers/harness.ts";
import { accountWithDevices } from "../../tests/helpers/alerting.ts";
import { GeocoderStore } from "./store.ts";
import { StreetGeocoder } from "./street.ts";
import type { Address } from "./types.ts";
import { openTestKv } from "../../tests/helpers/test_kv.ts";

const FUTIAN = { lat: 22.52192, lng: 114.05617 };

/**
 * A tiny Nominatim on loopback: answers /reverse with a street built from the coordinates,
 * records each request's time and query; `mode` makes it fail or hang.
 */
function fakeNominatim() {
  const seen: { at: number; url: URL; ua: string }[] = [];
  const state = { mode: "ok" as "ok" | "error" | "hang" | "sea" };
  const hanging: (() => void)[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    seen.push({ at: Date.now(), url, ua: req.headers.get("user-agent") ?? "" });
    if (state.mode === "error") return new Response("overloaded", { status: 503 });
    if (state.mode === "hang") await new Promise<void>((r) => hanging.push(r));
    if (state.mode === "sea") return Response.json({ error: "Unable to geocode" });
    const lang = url.searchParams.get("accept-language") ?? "";
    return Response.json({
      display_name: `${lang.startsWith("zh") ? "福华路" : "Fuhua Road"} ${
        url.searchParams.get("lat")
      }, Futian, Shenzhen`,
    });
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}/nominatim`,
    seen,
    state,
    async close() {
      for (const r of hanging) r();
      await server.shutdown();
    },
  };
}

Deno.test("street geocoder: cached by rounded point, one request a second, failures fall back", async (t) => {
  const fake = fakeNominatim();
  const dir = await Deno.makeTempDir();
  const kv = await openTestKv(`${dir}/kv`);
  const store = new GeocoderStore(kv);
  try {
    await t.step("asks /reverse in jsonv2 with a user agent and the language", async () => {
      const street = new StreetGeocoder(fake.url, store);
      const text = await street.lookup(22.54311, 114.05789, "en", 5000);
      assert.equal(text, "Fuhua Road 22.543110, Futian, Shenzhen");
      const { url, ua } = fake.seen[0];
      assert.equal(url.pathname, "/nominatim/reverse");
      assert.equal(url.searchParams.get("format"), "jsonv2");
      assert.equal(url.searchParams.get("lon"), "114.057890");
      assert.match(ua, /TrackingPlatform/);
      // ~11 m away rounds to the same cache cell: no second request.
      assert.equal(await street.lookup(22.54312, 114.05791, "en", 5000), text);
      assert.equal(fake.seen.length, 1);
      assert.equal(street.stats.cacheHits, 1);
      // Another language is another answer.
      assert.match((await street.lookup(22.54311, 114.05789, "zh", 5000))!, /^福华路/);
    });

    await t.step("distinct points are spaced by the rate limit", async () => {
      fake.seen.length = 0;
      const street = new StreetGeocoder(fake.url, store, { ratePerSecond: 4 });
      const got = await Promise.all(
        [1, 2, 3].map((i) => street.lookup(22.6 + i / 100, 114.1, "en", 5000)),
      );
      assert.ok(got.every((g) => g?.startsWith("Fuhua Road")));
      assert.equal(fake.seen.length, 3);
      for (let i = 1; i < 3; i++) {
        const gap = fake.seen[i].at - fake.seen[i - 1].at;
        assert.ok(gap >= 240, `gap ${gap} ms`);
      }
    });

    await t.step("a caller waits at most its budget; the late answer is cached", async () => {
      fake.seen.length = 0;
      const street = new StreetGeocoder(fake.url, store, { ratePerSecond: 2 });
      await street.lookup(22.7, 114.2, "en", 5000);
      // The next request may go out only 500 ms later: a 50 ms budget gets nothing yet.
      assert.equal(await street.lookup(22.71, 114.2, "en", 50), null);
      await street.idle();
      assert.match((await street.lookup(22.71, 114.2, "en", 0))!, /^Fuhua Road 22\.71/);
    });

    await t.step("'unable to geocode' is cached as no street", async () => {
      fake.seen.length = 0;
      fake.state.mode = "sea";
      const street = new StreetGeocoder(fake.url, store);
      assert.equal(await street.lookup(20, -150, "en", 5000), null);
      assert.equal(await street.lookup(20, -150, "en", 5000), null);
      assert.equal(fake.seen.length, 1);
    });

    await t.step("an error or a timeout answers null and pauses the server", async () => {
      fake.seen.length = 0;
      fake.state.mode = "error";
      const street = new StreetGeocoder(fake.url, store, { pauseAfterFailureMs: 60_000 });
      assert.equal(await street.lookup(23.1, 113.3, "en", 5000), null);
      assert.equal(await street.lookup(23.2, 113.3, "en", 5000), null);
      assert.equal(fake.seen.length, 1, "paused after the failure");
      assert.equal(street.stats.failures, 1);
      fake.state.mode = "hang";
      const slow = new StreetGeocoder(fake.url, store, { timeoutMs: 200 });
      const t0 = Date.now();
      assert.equal(await slow.lookup(23.3, 113.3, "en", 5000), null);
      assert.ok(Date.now() - t0 < 2000);
    });
  } finally {
    kv.close();
    await fake.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("GEOCODER_URL: the console gets street addresses, the dataset when the server fails", async () => {
  const fake = fakeNominatim();
  const app = await testApp({ GEOCODER_URL: fake.url, GEOCODER_RATE: "20" });
  try {
    const a = await accountWithDevices(app, "street_a", []);
    const ask = async () => {
      const r = await app.call("/v3/new/geocoder/reverse", { points: [FUTIAN] }, a.token);
      assert.equal(r.json.code, 10000, JSON.stringify(r.json));
      return r.json.data.list[0] as Address;
    };
    const street = await ask();
    assert.equal(street.source, "street");
    assert.equal(street.text, "Fuhua Road 22.521920, Futian, Shenzhen");
    fake.state.mode = "error";
    // Cached: still the street.
    assert.equal((await ask()).source, "street");
    const r = await app.call("/v3/new/geocoder/reverse", {
      points: [{ lat: 22.6, lng: 114.0 }],
    }, a.token);
    const fallback = r.json.data.list[0] as Address;
    assert.equal(fallback.source, "place");
    assert.match(fallback.text, /Shenzhen, Guangdong, China$/);
  } finally {
    await app.close();
    await fake.close();
  }
});
