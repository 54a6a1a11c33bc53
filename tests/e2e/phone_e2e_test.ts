/**
 * Every console page on a phone (issue 15): a real server fed by simulated GT06 trackers,
 * Chromium at 390×844 with an iPhone user agent. Each page the route modules register
 * (routes/mount.tsx pageRoutes, so a new page is covered as soon as it exists) is opened
 * logged in (private pages) or logged out (public pages) and must not scroll sideways, and
 * its main element must be on screen. The navigation drawer, a dialog and the monitor's
 * Map | List panes are exercised; the desktop tables (devices, accounts, batch command
 * picker) are checked at 1280 and 1440 px for columns hidden under the sticky Actions
 * column. Screenshots: tests/screenshots/phone-*.png and desktop-*.png.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { launchBrowser } from "../helpers/browser.ts";
import { PHONE, phoneContext } from "../helpers/e2e_pages.ts";
import { ADMIN_PASSWORD, startFleet } from "./monitor_fixture.ts";
import { pageRoutes } from "../../routes/mount.tsx";

const SHOTS = new URL("../screenshots/", import.meta.url).pathname;
const DEVICES = 6;
/** Smallest touch target (issue 15), with half a pixel for sub-pixel layout. */
const TOUCH = 39.5;

/** A file-name part for a path: "/v3/new/docs" → "v3-new-docs". */
const slug = (path: string) => path.replace(/^\//, "").replace(/\W+/g, "-") || "root";

/** Waits for the islands to hydrate, on pages that have any. */
async function hydrated(page: Page) {
  if (!(await page.locator("#__tp_props").count())) return;
  await page.waitForSelector("html[data-islands='hydrated']", { timeout: 20_000 });
}

/** Opens a page and waits until its islands run and its first data has arrived. */
async function open(page: Page, url: string) {
  await page.goto(url);
  await hydrated(page);
  await page.waitForLoadState("networkidle", { timeout: 5000 }).catch(() => {});
}

/**
 * What is wrong with the layout of the page on screen: sideways scrolling (with the widest
 * culprits named), a main element that is missing, empty or off screen, and touch targets
 * smaller than 40 px.
 */
function layoutProblems(page: Page, touch: number): Promise<string[]> {
  return page.evaluate((touch) => {
    const problems: string[] = [];
    const width = innerWidth;
    const doc = document.documentElement;
    const name = (el: Element) =>
      el.tagName.toLowerCase() + (el.id ? `#${el.id}` : "") +
      (el.classList.length ? `.${[...el.classList].join(".")}` : "");
    if (doc.scrollWidth > width) {
      const wide = [...document.querySelectorAll("body *")]
        .filter((el) => el.getBoundingClientRect().right > width + 1)
        .slice(0, 5)
        .map((el) => `${name(el)} → ${Math.round(el.getBoundingClientRect().right)}`);
      problems.push(`page is ${doc.scrollWidth}px wide for ${width}: ${wide.join(", ")}`);
    }
    const main = document.querySelector("main");
    if (!main) problems.push("no <main> element");
    else {
      const r = main.getBoundingClientRect();
      if (r.width < 1 || r.height < 1) problems.push(`main is ${r.width}×${r.height}`);
      if (r.left < -1 || r.right > width + 1 || r.top >= innerHeight || r.bottom <= 0) {
        problems.push(`main is off screen: ${JSON.stringify(r)}`);
      }
    }
    if (touch > 0) {
      const small = [
        ...document.querySelectorAll<HTMLElement>(
          "button, .btn, select, input:not([type=checkbox]):not([type=radio]):not([type=hidden])" +
            ":not([type=range]), .drawer a",
        ),
      ].filter((el) => {
        const r = el.getBoundingClientRect();
        const visible = r.width > 0 && r.height > 0 && r.bottom > 0 && r.top < innerHeight &&
          getComputedStyle(el).visibility !== "hidden" && !el.closest(".ol-attribution");
        return visible && Math.min(r.height, r.width) < touch;
      }).slice(0, 5).map((el) => {
        const r = el.getBoundingClientRect();
        return `${name(el)} "${(el.textContent ?? "").trim().slice(0, 20)}" ` +
          `${Math.round(r.width)}×${Math.round(r.height)}`;
      });
      if (small.length) problems.push(`touch targets under 40 px: ${small.join("; ")}`);
      // A checkbox or radio is touched through its label: the label's box must be 40 px
      // tall (a box without a label must be 40 px itself).
      const smallChecks = [
        ...document.querySelectorAll<HTMLInputElement>("input[type=checkbox], input[type=radio]"),
      ].map((el) => ({ el, target: (el.labels?.[0] ?? el) as HTMLElement }))
        .filter(({ el, target }) => {
          const r = target.getBoundingClientRect();
          const own = el.getBoundingClientRect();
          const visible = own.width > 0 && own.height > 0 && own.bottom > 0 &&
            own.top < innerHeight && getComputedStyle(el).visibility !== "hidden";
          return visible && (target === el ? Math.min(r.height, r.width) : r.height) < touch;
        }).slice(0, 5).map(({ el, target }) => {
          const r = target.getBoundingClientRect();
          const what = target === el
            ? `${name(el)} "${el.getAttribute("aria-label") ?? ""}"`.slice(0, 40)
            : `label "${(target.textContent ?? "").trim().slice(0, 20)}"`;
          return `${what} ${Math.round(r.width)}×${Math.round(r.height)}`;
        });
      if (smallChecks.length) {
        problems.push(`checkboxes/radios under 40 px: ${smallChecks.join("; ")}`);
      }
    }
    return problems;
  }, touch);
}

/** A dialog's box must lie inside the viewport. */
async function assertDialogFits(page: Page, what: string) {
  const box = await page.locator(".modal").last().boundingBox();
  assert.ok(box, `${what}: a dialog is open`);
  const vp = page.viewportSize()!;
  assert.ok(
    box.x >= 0 && box.y >= 0 && box.x + box.width <= vp.width + 0.5 &&
      box.y + box.height <= vp.height + 0.5,
    `${what}: dialog ${JSON.stringify(box)} fits ${vp.width}×${vp.height}`,
  );
}

async function login(page: Page, base: string) {
  await open(page, `${base}/login`);
  await page.fill("input[name=account]", "admin");
  await page.fill("input[name=password]", ADMIN_PASSWORD);
  await page.click("#login-submit");
  await page.waitForURL(/\/monitorObject/, { timeout: 15_000 });
  await hydrated(page);
  // The release notes show once after login; they are a dialog that must fit, too.
  const notes = page.locator(".modal .modal-foot .btn-primary");
  await notes.first().waitFor({ timeout: 3000 }).catch(() => {});
  if (await notes.count()) {
    await page.screenshot({ path: `${SHOTS}phone-release-notes.png` });
    await assertDialogFits(page, "release notes");
    await notes.first().click();
  }
}

/**
 * Each table frame on the page: does it scroll sideways, does it say so (the right-edge
 * cue), and scrolled to its end, which header cells still lie under the sticky Actions
 * column.
 */
function tableReport(page: Page) {
  return page.evaluate(async () => {
    const out = [];
    for (const wrap of document.querySelectorAll<HTMLElement>(".table-wrap")) {
      if (!wrap.offsetParent) continue;
      const overflows = wrap.scrollWidth > wrap.clientWidth + 1;
      const cueRight = wrap.classList.contains("cue-right");
      wrap.scrollLeft = wrap.scrollWidth;
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      const actions = wrap.querySelector("th.col-actions")?.getBoundingClientRect();
      const hiddenAtEnd = actions
        ? [...wrap.querySelectorAll("thead th:not(.col-actions)")]
          .filter((th) => th.getBoundingClientRect().right > actions.left + 1)
          .map((th) => th.textContent)
        : [];
      const cueLeft = wrap.classList.contains("cue-left");
      wrap.scrollLeft = 0;
      out.push({ overflows, cueRight, cueLeft: overflows ? cueLeft : true, hiddenAtEnd });
    }
    return out;
  });
}

/**
 * The accounts table's ⋯ menu: opened from the keyboard it takes the focus, the arrows move
 * through it, Escape closes it and gives the focus back; a click outside closes it; an item
 * does its action (Reset password opens its dialog).
 */
async function rowMenuByKeyboard(p: Page, base: string) {
  await open(p, `${base}/account`);
  const more = p.locator("tr[data-account=dist_one] .row-menu-btn");
  assert.equal(await more.getAttribute("aria-label"), "More actions for dist_one");
  const focused = () => p.evaluate(() => document.activeElement?.textContent ?? "");
  await more.focus();
  await p.keyboard.press("Enter");
  await p.locator(".row-menu:popover-open").waitFor();
  assert.equal(await more.getAttribute("aria-expanded"), "true");
  await p.waitForFunction(() => document.activeElement?.getAttribute("role") === "menuitem");
  assert.equal(await focused(), "Reset password");
  await p.keyboard.press("ArrowDown");
  assert.equal(await focused(), "Move");
  await p.keyboard.press("ArrowUp");
  await p.keyboard.press("ArrowUp");
  assert.equal(await focused(), "Delete", "the arrows wrap around");
  await p.keyboard.press("Escape");
  await p.locator(".row-menu:popover-open").waitFor({ state: "detached" });
  assert.equal(await more.getAttribute("aria-expanded"), "false");
  await p.waitForFunction(() => document.activeElement?.classList.contains("row-menu-btn"));
  await more.click();
  await p.locator(".row-menu:popover-open").waitFor();
  await p.mouse.click(700, 700);
  await p.locator(".row-menu:popover-open").waitFor({ state: "detached" });
  await more.click();
  await p.click(".row-menu:popover-open [data-action=reset]");
  await p.locator(".modal", { hasText: "Reset password of dist_one" }).waitFor();
  await p.keyboard.press("Escape");
}

Deno.test({
  name: "phone e2e: every page at 390×844 with a phone user agent, drawer, dialogs, monitor panes",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async (t) => {
    const fleet = await startFleet(DEVICES, { intervalSeconds: 2 });
    const browser = await launchBrowser();
    try {
      const base = fleet.server.url;
      const imei = fleet.sim.imeis[0];
      const share = await fleet.api.call<{ url: string }>("/v3/new/monitor/share/create", {
        imei,
        hours: 2,
      });
      const me = await fleet.api.currentUserId();
      // Every column of the accounts table filled, with a long email, as a real row would be.
      await fleet.api.call("/v3/new/account/add", {
        account: "dist_one",
        nickName: "Northwind",
        password: "Passw0rd99",
        accountType: 8,
        parentId: me,
        contact: "Li Wei",
        phone: "13800138000",
        email: "operations@northwind-logistics.example",
        expiration: "2027-12-31",
      });
      /** Query strings the pages need to show their content rather than redirect. */
      const query: Record<string, string> = {
        "/monitorTracking": `?imei=${imei}`,
        "/monitorPlayback": `?imei=${imei}`,
        "/monitorShare": new URL(share.url, base).search,
      };
      const routes = pageRoutes();
      const problems: string[] = [];
      const check = async (page: Page, path: string) => {
        for (const p of await layoutProblems(page, TOUCH)) problems.push(`${path}: ${p}`);
        await page.screenshot({ path: `${SHOTS}phone-${slug(path)}.png`, fullPage: true });
      };

      await t.step("public pages, logged out", async () => {
        const context = await phoneContext(browser);
        const page = await context.newPage();
        for (const r of routes.filter((r) => r.access === "public")) {
          await open(page, `${base}${r.path}${query[r.path] ?? ""}`);
          await check(page, r.path);
        }
        // The shared map keeps its controls free: nothing lies over the zoom buttons, the
        // map toolbar or the attribution.
        await open(page, `${base}/monitorShare${query["/monitorShare"]}`);
        await page.waitForSelector(".mon-live-card .mon-card");
        const covered = await page.evaluate(() => {
          const card = document.querySelector(".mon-live-card")!.getBoundingClientRect();
          return [".ol-zoom", ".mon-toolbar", ".ol-attribution", ".ol-scale-line"].filter((sel) => {
            const r = document.querySelector(sel)?.getBoundingClientRect();
            return !r || (r.left < card.right && r.right > card.left && r.top < card.bottom &&
              r.bottom > card.top);
          });
        });
        assert.deepEqual(covered, [], "share page: controls under the vehicle card");
        await context.close();
      });

      const context = await phoneContext(browser);
      const page = await context.newPage();
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(`${page.url()}: ${e.message}\n${e.stack}`));
      // Tiles cannot load here (no internet); any other console error is a fault.
      page.on("console", (m) => {
        if (m.type() === "error" && !m.text().startsWith("Failed to load resource")) {
          errors.push(`${page.url()}: ${m.text()}`);
        }
      });
      /** Waits for a state; on timeout, the screen and the page's errors say why. */
      const expect = async (what: string, wait: Promise<unknown>) => {
        try {
          await wait;
        } catch (e) {
          await page.screenshot({ path: `${SHOTS}phone-failed-${slug(what)}.png` });
          throw new Error(`${what}: ${(e as Error).message}\n${errors.join("\n")}`);
        }
      };
      await login(page, base);

      await t.step("every console page", async () => {
        const seen = new Set<string>();
        for (const r of routes.filter((r) => r.access === "private")) {
          await open(page, `${base}${r.path}${query[r.path] ?? ""}`);
          // Redirect-only routes (/mainFrame, /monitor, …) land on a page checked on its own.
          const landed = new URL(page.url()).pathname;
          if (landed !== r.path && routes.some((o) => o.path === landed)) continue;
          if (seen.has(landed)) continue;
          seen.add(landed);
          await check(page, r.path);
        }
      });

      assert.equal(problems.join("\n"), "", "layout problems");

      await t.step("mobile mode comes from the user agent", async () => {
        assert.equal(await page.locator("body.mobile").count(), 1);
        const desktop = await browser.newContext({ viewport: { width: 1440, height: 900 } });
        const res = await desktop.request.get(`${base}/login`);
        assert.match(await res.text(), /<body class="desktop"/);
        await desktop.close();
      });

      await t.step("the navigation drawer", async () => {
        await open(page, `${base}/devices`);
        const drawer = page.locator("#nav-drawer");
        assert.equal(await page.locator(".mainnav").isVisible(), false, "top navigation hidden");
        await page.click(".nav-toggle");
        await page.waitForSelector("#nav-drawer.open");
        await page.waitForTimeout(300); // the slide-in
        const box = (await drawer.boundingBox())!;
        assert.ok(box.x >= 0 && box.x + box.width <= PHONE.width, `drawer ${JSON.stringify(box)}`);
        assert.ok(
          await page.evaluate(() => !!document.activeElement?.closest("#nav-drawer")),
          "focus moves into the drawer",
        );
        assert.equal(await page.evaluate(() => document.querySelector("main")!.inert), true);
        // Every section, the settings pages, the language and logout are in it.
        for (
          const href of ["/monitorObject", "/account", "/devices", "/geofence", "/alertCenter"]
        ) {
          assert.equal(await drawer.locator(`a[href="${href}"]`).count(), 1, href);
        }
        assert.equal(await drawer.locator(`a[href="/addDomain"]`).count(), 1, "admin: white label");
        await drawer.locator("summary", { hasText: "Settings" }).click();
        assert.ok(await drawer.locator(`a[href="/changePassword"]`).isVisible());
        assert.ok(await drawer.locator("#drawer-logout").isVisible());
        assert.ok(await drawer.locator("select").isVisible());
        for (const p of await layoutProblems(page, TOUCH)) problems.push(`drawer: ${p}`);
        await page.screenshot({ path: `${SHOTS}phone-drawer.png` });
        // Tab stays inside; Escape closes and gives focus back to the menu button.
        for (let i = 0; i < 30; i++) await page.keyboard.press("Tab");
        assert.ok(await page.evaluate(() => !!document.activeElement?.closest("#nav-drawer")));
        await page.keyboard.press("Escape");
        await page.waitForSelector("#nav-drawer:not(.open)");
        assert.ok(await page.evaluate(() => document.activeElement?.matches(".nav-toggle")));
        await page.waitForFunction(() => !document.querySelector("main")!.inert);
        // A link navigates.
        await page.click(".nav-toggle");
        await drawer.locator(`a[href="/account"]`).click();
        await page.waitForURL(/\/account$/);
        await hydrated(page);
        assert.equal(await page.locator("#nav-drawer.open").count(), 0);
      });

      await t.step("dialogs fit the screen, their buttons stay in view", async () => {
        await open(page, `${base}/account`);
        await page.click("#account-add");
        await page.waitForSelector(".modal");
        await page.waitForTimeout(200);
        await assertDialogFits(page, "add account");
        const foot = (await page.locator(".modal .modal-foot").boundingBox())!;
        assert.ok(foot.y + foot.height <= PHONE.height + 0.5, "footer buttons on screen");
        const body = page.locator(".modal .modal-body");
        assert.ok(
          await body.evaluate((el) => el.scrollHeight > el.clientHeight),
          "the long form scrolls inside the dialog",
        );
        for (const p of await layoutProblems(page, TOUCH)) problems.push(`add account: ${p}`);
        await page.screenshot({ path: `${SHOTS}phone-dialog-add-account.png` });
        await page.keyboard.press("Escape");
        await open(page, `${base}/devices`);
        await page.click("#action-import");
        await page.waitForSelector(".modal");
        await assertDialogFits(page, "import devices");
        await page.screenshot({ path: `${SHOTS}phone-dialog-import.png` });
        await page.keyboard.press("Escape");
      });

      await t.step("accounts: the row's More menu fits and its items are touch-sized", async () => {
        await open(page, `${base}/account`);
        const more = page.locator("tr[data-account=dist_one] .row-menu-btn");
        await more.click();
        const menu = page.locator(".row-menu:popover-open");
        await menu.waitFor();
        const box = (await menu.boundingBox())!;
        assert.ok(
          box.x >= 0 && box.x + box.width <= PHONE.width && box.y + box.height <= PHONE.height,
          `menu ${JSON.stringify(box)} on screen`,
        );
        for (const item of await menu.locator("[role=menuitem]").all()) {
          const r = (await item.boundingBox())!;
          assert.ok(r.height >= TOUCH, `menu item ${await item.textContent()} ${r.height}px`);
        }
        await page.screenshot({ path: `${SHOTS}phone-account-menu.png` });
        await page.keyboard.press("Escape");
        await page.locator(".row-menu:popover-open").waitFor({ state: "detached" });
      });

      await t.step("devices: the account tree folds into the selected account's name", async () => {
        await open(page, `${base}/devices`);
        const fold = page.locator(".tree-panel .tree-fold");
        assert.equal((await fold.textContent())?.trim(), "Account: Administrator▾");
        assert.equal(await fold.getAttribute("aria-expanded"), "false");
        assert.equal(await page.locator("#tree-search").isVisible(), false, "tree folded");
        // The filters come right after it: the tree no longer pushes the page down.
        const foldBox = (await fold.boundingBox())!;
        assert.ok(foldBox.height >= TOUCH && foldBox.y + foldBox.height < 160, "a short fold");
        await fold.click();
        assert.ok(await page.locator("#tree-search").isVisible(), "unfolded by its button");
        await page.screenshot({ path: `${SHOTS}phone-devices-tree-open.png` });
        await page.locator("[data-tree-id]", { hasText: "Northwind" }).first().click();
        await page.waitForFunction(() =>
          document.querySelector(".tree-fold")?.textContent?.includes("Northwind")
        );
        assert.equal(await page.locator("#tree-search").isVisible(), false, "folded on choice");
        for (const p of await layoutProblems(page, TOUCH)) problems.push(`devices tree: ${p}`);
      });

      await t.step(
        "monitor: Map | List panes, the chosen vehicle's card over the map",
        async () => {
          await open(page, `${base}/monitorObject`);
          const map = page.locator(".mon-map-wrap");
          const mapBox = (await map.boundingBox())!;
          // The map fills what the top bar and the pane switch leave.
          assert.ok(mapBox.height > PHONE.height - 130, `map ${mapBox.height}px tall`);
          assert.ok(mapBox.y + mapBox.height <= PHONE.height + 0.5);
          assert.equal(await page.locator(".mon-side").isVisible(), false);
          await page.click(".mon-panes [data-pane=list]");
          await expect("monitor list", page.waitForSelector(".mon-row", { timeout: 15_000 }));
          assert.equal(await map.isVisible(), false);
          assert.ok((await page.locator(".mon-side").boundingBox())!.height > PHONE.height - 130);
          await page.screenshot({ path: `${SHOTS}phone-monitor-list.png` });
          await page.locator(".mon-row").first().click();
          const card = page.locator(".mon-popup .mon-card");
          await card.waitFor();
          assert.ok(await map.isVisible(), "choosing a vehicle shows the map");
          await page.waitForTimeout(500); // the map's move to it
          const cardBox = (await card.boundingBox())!;
          assert.ok(
            cardBox.x >= 0 && cardBox.x + cardBox.width <= PHONE.width &&
              cardBox.y >= mapBox.y && cardBox.y + cardBox.height <= PHONE.height,
            `card ${JSON.stringify(cardBox)} on the map`,
          );
          for (const p of await layoutProblems(page, TOUCH)) problems.push(`monitor card: ${p}`);
          await page.screenshot({ path: `${SHOTS}phone-monitor-card.png` });
        },
      );

      await t.step("playback: the query, then the track on the map", async () => {
        await open(page, `${base}/monitorPlayback?imei=${imei}`);
        assert.ok(await page.locator(".mon-side").isVisible(), "the query form first");
        await page.click("#playback-query");
        // A track switches to the map by itself.
        await expect(
          "playback track",
          page.locator(".mon-map-wrap").waitFor({ state: "visible", timeout: 30_000 }),
        );
        assert.equal(await page.locator(".mon-side").isVisible(), false);
        await page.waitForTimeout(500);
        for (const p of await layoutProblems(page, TOUCH)) problems.push(`playback map: ${p}`);
        await page.screenshot({ path: `${SHOTS}phone-playback-map.png` });
      });
      assert.equal(problems.join("\n"), "", "layout problems");
      const session = await context.storageState();
      await context.close();

      await t.step("desktop tables: no column hidden under the Actions column", async () => {
        for (const width of [1280, 1440]) {
          const desk = await browser.newContext({
            viewport: { width, height: 900 },
            storageState: session,
          });
          const p = await desk.newPage();
          for (const path of ["/devices", "/account", "/batchCommand"]) {
            await open(p, `${base}${path}`);
            await p.waitForSelector(".table-wrap table tbody tr");
            await p.waitForTimeout(300);
            const tables = await tableReport(p);
            for (const tb of tables) {
              assert.ok(
                tb.cueRight === tb.overflows,
                `${path}@${width}: cue ${JSON.stringify(tb)}`,
              );
              assert.deepEqual(tb.hiddenAtEnd, [], `${path}@${width}: hidden at the end`);
            }
            if (path === "/account") {
              assert.deepEqual(
                tables.map((tb) => tb.overflows),
                [false],
                `${path}@${width}: every column without scrolling`,
              );
            }
            if (path === "/batchCommand") {
              const cut = await p.locator(".cmd-picker .tree-name").evaluateAll((els) =>
                els.filter((el) => el.scrollWidth > el.clientWidth + 1).map((el) => el.textContent)
              );
              assert.deepEqual(cut, [], `${path}@${width}: tree names cut`);
            }
            await p.screenshot({ path: `${SHOTS}desktop-${slug(path)}-${width}.png` });
          }
          if (width === 1280) await rowMenuByKeyboard(p, base);
          await desk.close();
        }
      });
      assert.deepEqual(errors, [], "no script errors on the phone");
    } finally {
      await browser.close();
      await fleet.stop();
    }
  },
});
