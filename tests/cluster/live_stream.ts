/**
 * An SSE client of /v3/new/monitor/stream that notes when each `pos` row arrives, for the
 * cluster test and bench (a live event crossing instances).
 */
import assert from "node:assert/strict";
import { within } from "../../lib/within.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An SSE client of /v3/new/monitor/stream: resolves when a `pos` row of `imei` arrives. */
export function liveStream(base: string, token: string) {
  const abort = new AbortController();
  const seen: { imei: string; lat: number; at: number }[] = [];
  let markConnected = () => {};
  const connectedSeen = new Promise<void>((r) => markConnected = r);
  void fetch(`${base}/v3/new/monitor/stream`, {
    headers: { authorization: `Bearer ${token}` },
    signal: abort.signal,
  }).then((res) => {
    assert.equal(res.status, 200);
    const reading = (async () => {
      const decoder = new TextDecoder();
      let text = "";
      try {
        for await (const chunk of res.body!) {
          text += decoder.decode(chunk, { stream: true });
          let end;
          while ((end = text.indexOf("\n\n")) >= 0) {
            const block = text.slice(0, end);
            text = text.slice(end + 2);
            if (/^: connected$/m.test(block)) markConnected();
            const event = /^event: (.*)$/m.exec(block)?.[1];
            const data = /^data: (.*)$/m.exec(block)?.[1];
            if (event !== "pos" || !data) continue;
            for (const row of JSON.parse(data) as [string, number][]) {
              seen.push({ imei: row[0], lat: row[1], at: performance.now() });
            }
          }
        }
      } catch { /* aborted */ }
    })();
    return reading;
  });
  return {
    /** The server's ": connected": events of every instance reach this stream from now on. */
    connected: async (timeoutMs = 10_000) => {
      if (!await within(connectedSeen, timeoutMs)) {
        throw new Error(`no ": connected" within ${timeoutMs} ms`);
      }
    },
    /** The arrival time of a position of `imei` at `lat`. */
    waitPosition: (imei: string, lat: number, timeoutMs: number) =>
      waitArrival(
        () => seen.find((s) => s.imei === imei && Math.abs(s.lat - lat) < 1e-6)?.at,
        timeoutMs,
      ),
    close: () => abort.abort(),
  };
}

async function waitArrival(find: () => number | undefined, timeoutMs: number): Promise<number> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const at = find();
    if (at !== undefined) return at;
    if (Date.now() > until) throw new Error(`no live position within ${timeoutMs} ms`);
    await sleep(5);
  }
}

/** Logs `account` in at `base` and returns the session token. */
export async function loginToken(base: string, account: string, password: string) {
  const res = await fetch(`${base}/v3/new/account/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ account, password }),
  });
  const json = await res.json();
  assert.equal(json.code, 10000, JSON.stringify(json));
  return json.data.token as string;
}
