/**
 * GET /health, for load balancers and monitoring (no session). Single mode answers as it always
 * has: the store's latency and the gateway's counters, 503 when the store fails. Cluster mode
 * (issue 23) answers `{status, store: "postgres", database: {state}, nats: {state}}` (plus the
 * gateway's counters) and 503 when either is down, so a balancer stops sending to an instance
 * that cannot store or cannot reach the others.
 */
import type { Hono } from "hono";
import type { AppEnv } from "../lib/http/env.ts";
import type { Services } from "./compose.ts";

/** Answers whether the store takes a trivial query now (StoreBackend.health). */
export type StoreHealth = () => Promise<"up" | "down">;

/** A store check slower than this counts as down (a balancer's probe must not hang). */
const CHECK_TIMEOUT_MS = 2_000;

export function registerHealth(app: Hono<AppEnv>, s: Services, storeHealth?: StoreHealth): void {
  if (s.cluster.mode === "cluster") {
    const store = storeHealth ?? (() => s.systemStore.ping().then(() => "up" as const));
    app.get("/health", async (c) => {
      const started = performance.now();
      const database = await withTimeout(store());
      const nats = s.cluster.link.state();
      const ok = database === "up" && nats === "up";
      return c.json({
        status: ok ? "ok" : "error",
        store: "postgres",
        database: { state: database, latencyMs: +(performance.now() - started).toFixed(2) },
        nats: { state: nats },
        gateway: gatewayCounters(s),
      }, ok ? 200 : 503);
    });
    return;
  }
  app.get("/health", async (c) => {
    const started = performance.now();
    try {
      await s.systemStore.ping();
      return c.json({
        status: "ok",
        store: { state: "ok", latencyMs: +(performance.now() - started).toFixed(2) },
        gateway: gatewayCounters(s),
      });
    } catch (e) {
      return c.json({ status: "error", store: { state: "unavailable", error: String(e) } }, 503);
    }
  });
}

/** "down" when the check fails or takes longer than CHECK_TIMEOUT_MS. */
async function withTimeout(check: Promise<"up" | "down">): Promise<"up" | "down"> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<"down">((r) => (timer = setTimeout(() => r("down"), CHECK_TIMEOUT_MS)));
  try {
    return await Promise.race([check.catch(() => "down" as const), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The gateway's counters: numbers only (the endpoint answers without a session, so it names no
 * device). implausibleTimes counts fixes dated before 2000, acknowledged but kept out of tracks:
 * a rising count points at devices whose clock was never set.
 */
function gatewayCounters(s: Services) {
  return {
    connections: s.connections.size,
    implausibleTimes: s.ingestor.stats.implausibleTimes,
  };
}
