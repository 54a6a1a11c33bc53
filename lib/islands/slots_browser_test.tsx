/**
 * End to end in Chromium: slots (server-rendered children handed to an island) and a published
 * React library (react-window, through preact/compat) rendered on the server and hydrated.
 * Needs -A (spawns `deno bundle` and Chromium). Skipped when Chromium is missing.
 */
import assert from "node:assert/strict";
import type { Browser, Page } from "playwright-core";
import { chromiumPath, launchBrowser } from "../../tests/helpers/browser.ts";
import Counter from "../../islands/_test/Counter.tsx";
import Panel from "../../islands/_test/Panel.tsx";
import VirtualRows from "../../islands/_test/VirtualRows.tsx";
import { renderPage } from "./render.tsx";
import { type IslandsSite, serveIslandsPage } from "./test_site.ts";

/** Says where it was rendered: slot content the client re-rendered would read "browser". */
function Where({ id }: { id: string }) {
  return <span id={id}>{"Deno" in globalThis ? "server" : "browser"}</span>;
}

function SlotsPage() {
  return (
    <main>
      <Panel
        title="panel"
        aside={<Where id="where-aside" />}
        extra={<Counter start={40} label="extra" />}
      >
        <p id="slot-static">
          static <b>bold</b> <Where id="where-body" />
        </p>
        <Counter start={1} label="slot" />
      </Panel>
      <VirtualRows count={10000} prefix="Vehicle" />
    </main>
  );
}

async function withPage(fn: (page: Page, base: string) => Promise<void>): Promise<void> {
  let site: IslandsSite | undefined;
  let browser: Browser | undefined;
  try {
    site = await serveIslandsPage(
      "tp-slots-",
      (manifest) => renderPage(<SlotsPage />, { title: "slots", lang: "en", manifest }),
    );
    browser = await launchBrowser();
    const page = await browser.newPage();
    page.setDefaultTimeout(10000);
    const errors: string[] = [];
    page.on("pageerror", (err) => errors.push(String(err)));
    page.on("console", (msg) => {
      if (msg.type() === "error" || msg.type() === "warning") errors.push(msg.text());
    });
    await fn(page, site.base);
    assert.deepEqual(errors, []);
  } finally {
    await browser?.close();
    await site?.close();
  }
}

Deno.test({
  name: "slots and react-window hydrate in Chromium",
  ignore: chromiumPath() === null,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await withPage(async (page, base) => {
      // Server HTML: react-window rendered the first rows only, with their React props.
      const html = await (await fetch(base + "/")).text();
      assert.match(html, /<div role="list" id="vrows-list"[^>]*>.*id="vrow-0">Vehicle 0</s);
      assert.ok(!html.includes('id="vrow-9999"'));
      const rowsServer = html.match(/class="vrow"/g)?.length ?? 0;
      assert.ok(rowsServer > 5 && rowsServer < 30, `server rendered ${rowsServer} rows`);

      await page.goto(base + "/");
      await page.waitForSelector("html[data-islands=hydrated]");

      // Slot content is the server's DOM, kept as is: not re-rendered in the browser.
      assert.equal(await page.textContent("#where-body"), "server");
      assert.equal(await page.textContent("#where-aside"), "server");
      assert.equal(await page.locator("#slot-static").count(), 1);
      // The island in the slot is an island of its own, and the panel is interactive too.
      await page.click("#slot-inc");
      await page.click("#slot-inc");
      assert.equal(await page.textContent("#slot-value"), "3");
      // Hiding and showing the body moves the same nodes back: the counter keeps its state
      // and still works.
      await page.click("#panel-toggle");
      assert.equal(await page.locator("#slot-value").count(), 0);
      await page.click("#panel-toggle");
      assert.equal(await page.textContent("#slot-value"), "3");
      await page.click("#slot-inc");
      assert.equal(await page.textContent("#slot-value"), "4");
      assert.equal(await page.textContent("#where-body"), "server");
      // A slot the server did not show comes from its template; the island inside hydrates.
      assert.equal(await page.locator("#extra-value").count(), 0);
      await page.click("#panel-more");
      assert.equal(await page.textContent("#extra-value"), "40");
      await page.click("#extra-inc");
      assert.equal(await page.textContent("#extra-value"), "41");
      assert.equal(await page.locator("template").count(), 0);

      // react-window: hydrated over the server rows (no second copy), clicks reach the
      // island's state, and scrolling renders far rows.
      assert.equal(await page.locator("#vrow-0").count(), 1);
      await page.click("#vrow-3");
      assert.equal(await page.textContent("#vrows-picked"), "3");
      assert.match((await page.textContent("#vrow-3")) ?? "", /Vehicle 3 ✓/);
      await page.locator("#vrows-list").evaluate((el) => el.scrollTop = el.scrollHeight);
      await page.waitForSelector("#vrow-9999");
      const rendered = await page.locator(".vrow").count();
      assert.ok(rendered < 30, `the list stays virtual (${rendered} rows in the DOM)`);
      await page.click("#vrow-9999");
      assert.equal(await page.textContent("#vrows-picked"), "9999");
    });
  },
});
