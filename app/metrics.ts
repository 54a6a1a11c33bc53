/**
 * The process's metrics registry and `GET /metrics` (Prometheus text format 0.0.4).
 *
 * The composition root builds one `Registry` and hands each module the series it counts
 * into (the gateway's links and ingest, alert delivery, jobs); values that already live in a
 * module (live-stream clients) are read at scrape time. lib/metrics.ts knows no module.
 *
 * Access: with METRICS_TOKEN set, a request must carry `Authorization: Bearer <token>`;
 * without it, only loopback clients (127.0.0.0/8, ::1) are answered, so a scraper on the same
 * host works with no setup and nothing leaks to the network by default.
 */
import type { Context, MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import {
  CONTENT_TYPE,
  type Counter,
  type Family,
  type Histogram,
  Registry,
  SECONDS_BUCKETS,
} from "../lib/metrics.ts";
import type { AppEnv } from "../lib/http/env.ts";
import { type GatewayMetrics, gatewayMetrics } from "../modules/gateway/metrics.ts";
import type { DeliveryCounters } from "../modules/alerts/delivery.ts";

/** Scheduled job runs by job and result. */
export interface JobMetrics {
  run(job: string, ok: boolean, seconds: number): void;
}

export interface AppMetrics {
  registry: Registry;
  gateway: GatewayMetrics;
  alerts: DeliveryCounters;
  jobs: JobMetrics;
  http: HttpMetrics;
}

/** Builds the registry with every area's series. */
export function createMetrics(): AppMetrics {
  const registry = new Registry();
  const gateway = gatewayMetrics(registry);
  const raised = registry.counter("tp_alerts_raised_total", "Alerts raised (device and engine)");
  const delivered = registry.counter("tp_alerts_delivered_total", "Alerts delivered", [
    "channel",
  ]);
  const runs = registry.counter("tp_job_runs_total", "Scheduled job runs", ["job", "result"]);
  const jobSeconds = registry.histogram(
    "tp_job_duration_seconds",
    "Scheduled job run time",
    SECONDS_BUCKETS,
    ["job"],
  );
  return {
    registry,
    gateway,
    alerts: {
      raised: raised.labels(),
      delivered: {
        console: delivered.labels("console"),
        mail: delivered.labels("mail"),
        webhook: delivered.labels("webhook"),
      },
    },
    jobs: {
      // A few runs a minute: resolving the series per run costs nothing that matters.
      run(job, ok, seconds) {
        runs.labels(job, ok ? "ok" : "failed").inc();
        jobSeconds.labels(job).observe(seconds);
      },
    },
    http: new HttpMetrics(registry),
  };
}

/** HTTP requests by route pattern (not path: bounded label values) and status. */
export class HttpMetrics {
  private readonly requests: Family<Counter>;
  private readonly seconds: Family<Histogram>;
  /** Series by "method route status" / route, resolved once each. */
  private readonly counters = new Map<string, Counter>();
  private readonly histograms = new Map<string, Histogram>();

  constructor(r: Registry) {
    this.requests = r.counter("tp_http_requests_total", "HTTP requests", [
      "method",
      "route",
      "status",
    ]);
    this.seconds = r.histogram(
      "tp_http_request_duration_seconds",
      "HTTP request time until the response started",
      SECONDS_BUCKETS,
      ["route"],
    );
  }

  observe(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${route} ${status}`;
    let c = this.counters.get(key);
    if (!c) {
      c = this.requests.labels(method, route, String(status));
      this.counters.set(key, c);
    }
    c.inc();
    let h = this.histograms.get(route);
    if (!h) {
      h = this.seconds.labels(route);
      this.histograms.set(route, h);
    }
    h.observe(seconds);
  }

  /** Middleware counting every request under the pattern of the route that answered it. */
  middleware(): MiddlewareHandler<AppEnv> {
    return async (c, next) => {
      const started = performance.now();
      await next();
      // After next(), the route index is the one that answered ("*" when none matched).
      const route = routePath(c);
      this.observe(
        c.req.method,
        route === "*" || route === "/*" || route === "" ? "unmatched" : route,
        c.res.status,
        (performance.now() - started) / 1000,
      );
    };
  }
}

/** Whether an address is loopback: 127.0.0.0/8, ::1, or IPv4-mapped 127.x. */
export function isLoopback(address: string): boolean {
  const a = address.toLowerCase();
  if (a === "::1" || a === "0:0:0:0:0:0:0:1") return true;
  const v4 = a.startsWith("::ffff:") ? a.slice(7) : a;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

/** Constant-time comparison of the presented token with the configured one. */
function sameToken(a: string, b: string): boolean {
  const x = new TextEncoder().encode(a), y = new TextEncoder().encode(b);
  let diff = x.length ^ y.length;
  for (let i = 0; i < Math.max(x.length, y.length); i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0);
  return diff === 0;
}

/**
 * GET /metrics: 401 without the right bearer token when METRICS_TOKEN is set; 403 to a
 * non-loopback client when it is not.
 */
export function metricsHandler(registry: Registry, token: string | undefined) {
  return (c: Context<AppEnv>): Response => {
    if (token) {
      const presented = /^Bearer\s+(.+)$/i.exec(c.req.header("authorization") ?? "")?.[1];
      if (!presented || !sameToken(presented.trim(), token)) {
        return c.text("unauthorized\n", 401, { "WWW-Authenticate": 'Bearer realm="metrics"' });
      }
    } else if (!isLoopback(c.var.clientIp ?? "")) {
      return c.text("forbidden: set METRICS_TOKEN to scrape from another host\n", 403);
    }
    return c.body(registry.render(), 200, { "Content-Type": CONTENT_TYPE });
  };
}
