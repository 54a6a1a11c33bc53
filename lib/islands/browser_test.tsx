/**
 * End to end: build the islands/_test fixtures, serve a page with Hono, hydrate in Chromium.
 * Needs -A (spawns `deno bundle` and Chromium). Skipped when /usr/bin/chromium is missing.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { chromiumPath, launchBrowser } from "../../tests/helpers/browser.ts";
import Counter from "../../islands/_test/Counter.tsx";
import Outer from "../../islands/_test/Outer.tsx";
import Payload from "../../islands/_test/Payload.tsx";
import SignalCounter from "../../islands/_test/SignalCounter.tsx";
import { renderPage } from "./render.tsx";
import { type IslandsSite, serveIslandsPage } from "./test_site.ts";

const XSS = "</script><script>window.__xss=1</script>";
const WHEN = new Date("2024-02-29T12:34:56.789Z");

const hasChromium = chromiumPath() !== null;

Deno.test({
  name: "islands hydrate in Chromium (hooks, signals, nested, XSS-safe props, Date)",
  ignore: !hasChromium,
  // Playwright keeps pipes/timers the sanitizers would flag; we close everything in finally.
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    let site: IslandsSite | undefined;
    let browser: Browser | undefined;
    try {
      site = await serveIslandsPage("tp-islands-", (manifest) =>
        renderPage(
          <main>
            <div id="pair">
              <Counter start={5} label="hook" />
              <SignalCounter start={10} />
            </div>
            <Outer title="outer" />
            <Payload text={XSS} when={WHEN} />
          </main>,
          { title: "islands", lang: "en", manifest, nonce: "n0nce" },
        ));
      const { base, manifest, outDir } = site;

      // Hashed names: entries get -<8 hex>, esbuild chunks chunk-<HASH>.
      const files = [...Deno.readDirSync(join(outDir, "assets"))].map((e) => e.name);
      assert.ok(files.some((f) => f.startsWith("chunk-")), files.join());
      for (const f of files) assert.match(f, /^(?:[\w]+-[0-9a-f]{8}|chunk-[A-Z0-9]{8})\.js$/);
      for (const url of [manifest.boot, ...Object.values(manifest.islands)]) {
        assert.match(url, /^\/assets\/[\w]+-[0-9a-f]{8}\.js$/);
      }

      const asset = await fetch(base + manifest.boot);
      assert.equal(asset.status, 200);
      assert.equal(asset.headers.get("cache-control"), "public, max-age=31536000, immutable");
      assert.equal(asset.headers.get("content-type"), "text/javascript; charset=utf-8");
      await asset.body?.cancel();

      browser = await launchBrowser();
      const page = await browser.newPage();
      page.setDefaultTimeout(10000);
      const errors: string[] = [];
      page.on("pageerror", (err) => errors.push(String(err)));
      page.on("console", (msg) => {
        // Failed loads are reported below with their URL.
        if (msg.type() === "error" && !msg.text().startsWith("Failed to load resource")) {
          errors.push(msg.text());
        }
      });
      page.on("response", (res) => {
        if (res.status() >= 400) errors.push(`${res.status()} ${res.url()}`);
      });

      await page.goto(base + "/");
      await page.waitForSelector("html[data-islands=hydrated]");
      assert.deepEqual(errors, []);

      // Two islands side by side, hooks and signals: both need the single shared Preact.
      await page.click("#hook-inc");
      await page.click("#hook-inc");
      await page.click("#signal-inc");
      assert.equal(await page.textContent("#hook-value"), "7");
      assert.equal(await page.textContent("#signal-value"), "11");

      // Nested: the inner island is interactive as part of the outer one, and the outer too.
      assert.equal(await page.textContent("#inner-toggle"), "off");
      await page.click("#inner-toggle");
      assert.equal(await page.textContent("#inner-toggle"), "on");
      await page.click("#outer-inc");
      assert.equal(await page.textContent("#outer-inc"), "1");
      assert.equal(await page.textContent("#inner-toggle"), "on");
      assert.equal(await page.textContent("#inner-greeting"), "hello from outer");
      // Hydration reused the server DOM instead of appending a second copy.
      assert.equal(await page.locator("#inner-toggle").count(), 1);
      assert.equal(await page.locator("#hook-inc").count(), 1);

      // Props: the script-breaking string is plain text, and the Date is a Date.
      assert.equal(await page.evaluate(() => "__xss" in globalThis), false);
      assert.equal(await page.textContent("#payload-text"), XSS);
      assert.equal(await page.textContent("#payload-date"), `true|${WHEN.toISOString()}`);
      assert.deepEqual(errors, []);
    } finally {
      await browser?.close();
      await site?.close();
    }
  },
});
