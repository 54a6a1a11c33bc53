/**
 * Page steps the e2e tests share: logging in through the login form, and a phone-sized
 * touch context for the phone layout.
 */
import type { Browser, BrowserContext, Page } from "playwright-core";

/** An iPhone's screen and user agent: what the phone layout is checked at. */
export const PHONE = { width: 390, height: 844 };
export const PHONE_UA =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 " +
  "(KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";

/** Logs `account` in through the login form; resolves once the monitor page it lands on loads. */
export async function formLogin(page: Page, base: string, account: string, password: string) {
  await page.goto(`${base}/login`);
  // Before hydration the form posts nowhere useful: wait for the island.
  await page.waitForSelector("html[data-islands='hydrated']");
  await page.fill("input[name=account]", account);
  await page.fill("input[name=password]", password);
  await page.click("#login-submit");
  await page.waitForURL(/\/monitorObject/, { timeout: 15_000 });
}

/** A phone-sized touch context at PHONE with an iPhone's user agent. */
export async function phoneContext(browser: Browser): Promise<BrowserContext> {
  return await browser.newContext({
    viewport: PHONE,
    userAgent: PHONE_UA,
    isMobile: true,
    hasTouch: true,
    deviceScaleFactor: 1,
  });
}
