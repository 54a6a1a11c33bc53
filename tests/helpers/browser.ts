import { type Browser, chromium } from "playwright-core";

/** The Chromium executable: CHROMIUM_PATH, else Debian's. */
export function chromiumPath(): string | null {
  for (
    const p of [Deno.env.get("CHROMIUM_PATH"), "/usr/bin/chromium", "/usr/bin/chromium-browser"]
  ) {
    if (!p) continue;
    try {
      if (Deno.statSync(p).isFile) return p;
    } catch { /* try the next */ }
  }
  return null;
}

/** Headless Chromium with the flags this sandbox needs (no background networking). */
export async function launchBrowser(): Promise<Browser> {
  const executablePath = chromiumPath();
  if (!executablePath) throw new Error("No Chromium found: apt-get install -y chromium");
  return await chromium.launch({
    executablePath,
    timeout: 30_000,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}
