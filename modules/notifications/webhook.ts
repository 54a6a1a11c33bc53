import { BizError } from "../../lib/errors.ts";
import { addressClass, resolveHost } from "../../lib/net/public_address.ts";
import type { WebhookLogStore } from "./webhook_store.ts";
import { writeAll } from "../../lib/net/write_all.ts";

/** Retries after the first attempt; the delay doubles each time (base, 2×, 4×). */
export const WEBHOOK_RETRIES = 3;
const TIMEOUT_MS = 10_000;

export interface DeliveryAttempt {
  at: number;
  status: number | null;
  error: string | null;
}

export interface DeliveryLog {
  id: string;
  userId: string;
  url: string;
  event: string;
  ok: boolean;
  attempts: DeliveryAttempt[];
  createdAt: number;
}

/** Hex HMAC-SHA256 of `timestamp.body`, the value of the X-Signature header (after "sha256="). */
export async function sign(secret: string, timestamp: string, body: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = await crypto.subtle.sign(
    "HMAC",
    key,
    new TextEncoder().encode(`${timestamp}.${body}`),
  );
  return [...new Uint8Array(mac)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export function newSecret(): string {
  return [...crypto.getRandomValues(new Uint8Array(24))].map((b) => b.toString(16).padStart(2, "0"))
    .join("");
}

/**
 * Signed webhook calls for integrators. Each call is POSTed as JSON with
 * `X-Webhook-Id`, `X-Webhook-Timestamp` (epoch seconds) and
 * `X-Webhook-Signature: sha256=<hex HMAC-SHA256(secret, timestamp + "." + body)>`; a non-2xx
 * answer or a network error is retried with exponential back-off, and every attempt lands in
 * the delivery log (kept 30 days).
 */
export class WebhookSender {
  private inflight = new Set<Promise<DeliveryLog>>();

  constructor(
    private readonly store: WebhookLogStore,
    private readonly retryBaseMs: number,
    /** WEBHOOK_ALLOW_PRIVATE=on: loopback and internal addresses may be called. */
    private readonly allowPrivate = false,
  ) {}

  /**
   * The check when a webhook address is saved: refused when its host is, or resolves to, a
   * non-public address. A name that does not resolve now is kept: delivery checks again.
   */
  async checkUrl(url: string): Promise<void> {
    const host = new URL(url).hostname;
    const addresses = await resolveHost(host);
    if (!this.allowPrivate && addresses.some((a) => addressClass(a) !== null)) {
      throw new BizError("webhookAddressRefused", { host: host.replace(/^\[|\]$/g, "") });
    }
  }

  /**
   * Starts a delivery in the background; `idle()` waits for all of them (tests, shutdown).
   * With `form`, the body is those fields URL-encoded (the Open API's Tracksolid-form push)
   * instead of the JSON envelope; retries, signature headers and the log are the same.
   */
  deliver(
    userId: string,
    url: string,
    secret: string,
    event: string,
    payload: unknown,
    form?: Record<string, string>,
  ): Promise<DeliveryLog> {
    const p = this.run(userId, url, secret, event, payload, form).finally(() =>
      this.inflight.delete(p)
    );
    this.inflight.add(p);
    return p;
  }

  async idle(): Promise<void> {
    while (this.inflight.size) await Promise.allSettled([...this.inflight]);
  }

  private async run(
    userId: string,
    url: string,
    secret: string,
    event: string,
    payload: unknown,
    form?: Record<string, string>,
  ): Promise<DeliveryLog> {
    const log: DeliveryLog = {
      id: crypto.randomUUID(),
      userId,
      url,
      event,
      ok: false,
      attempts: [],
      createdAt: Date.now(),
    };
    const body = form ? new URLSearchParams(form).toString() : JSON.stringify({
      id: log.id,
      event,
      createdAt: new Date().toISOString(),
      data: payload,
    });
    for (let attempt = 0; attempt <= WEBHOOK_RETRIES && !log.ok; attempt++) {
      if (attempt > 0) {
        await new Promise((r) => setTimeout(r, this.retryBaseMs * 2 ** (attempt - 1)));
      }
      const timestamp = String(Math.floor(Date.now() / 1000));
      const entry: DeliveryAttempt = { at: Date.now(), status: null, error: null };
      let refused = false;
      try {
        // Resolved and checked on every attempt (DNS may have changed since the address was
        // saved), then the call goes to the checked address itself: no second lookup.
        const target = await this.target(url);
        if (!target) {
          refused = true;
          entry.error = "webhookAddressRefused";
        } else {
          entry.status = await post(target, {
            "content-type": form ? "application/x-www-form-urlencoded" : "application/json",
            "user-agent": "TrackingPlatform-Webhook/1",
            "x-webhook-id": log.id,
            "x-webhook-timestamp": timestamp,
            "x-webhook-signature": `sha256=${await sign(secret, timestamp, body)}`,
          }, body);
          log.ok = entry.status >= 200 && entry.status < 300;
        }
      } catch (e) {
        entry.error = (e as Error).message.slice(0, 200);
      }
      log.attempts.push(entry);
      await this.store.save(log);
      if (refused) break; // a refused address is not retried
    }
    return log;
  }

  /** The URL and the one checked address to connect to; null when the address is refused. */
  private async target(url: string): Promise<Target | null> {
    const u = new URL(url);
    const addresses = await resolveHost(u.hostname);
    if (!addresses.length) throw new Error(`host not found: ${u.hostname}`);
    if (!this.allowPrivate && addresses.some((a) => addressClass(a) !== null)) return null;
    return { url: u, address: addresses[0] };
  }

  logs(userId: string, limit = 50): Promise<DeliveryLog[]> {
    return this.store.list(userId, limit);
  }
}

/** Where a call goes: the URL and the one checked address the socket connects to. */
export interface Target {
  url: URL;
  address: string;
}

/**
 * POSTs to the checked address and returns the answer's status. A small HTTP/1.1 client
 * rather than fetch(): fetch resolves the host again, which would let a DNS answer that
 * changes between check and connect (rebinding) reach an internal address. TLS is verified
 * against the URL's host name while the socket goes to the checked address. Redirects are
 * not followed (the 3xx status is the answer). The SMS gateway (sms.ts) posts through it too.
 */
export async function post(target: Target, headers: Record<string, string>, body: string) {
  const { url, address } = target;
  const tls = url.protocol === "https:";
  const port = Number(url.port) || (tls ? 443 : 80);
  const deadline = Date.now() + TIMEOUT_MS;
  let conn: Deno.Conn = await connectWithin(address, port, TIMEOUT_MS);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    closeQuietly(conn);
  }, Math.max(0, deadline - Date.now()));
  try {
    if (tls) {
      conn = await Deno.startTls(conn as Deno.TcpConn, {
        hostname: url.hostname.replace(/^\[|\]$/g, ""),
      });
    }
    const payload = new TextEncoder().encode(body);
    const head = [
      `POST ${url.pathname}${url.search} HTTP/1.1`,
      `host: ${url.host}`,
      ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
      `content-length: ${payload.length}`,
      "connection: close",
      "",
      "",
    ].join("\r\n");
    await writeAll(conn, new TextEncoder().encode(head));
    await writeAll(conn, payload);
    return await readStatus(conn);
  } catch (e) {
    throw new Error(timedOut ? "timed out" : (e as Error).message);
  } finally {
    clearTimeout(timer);
    closeQuietly(conn);
  }
}

/** Deno.connect takes no signal: a connect still pending at the deadline is closed later. */
async function connectWithin(hostname: string, port: number, ms: number): Promise<Deno.Conn> {
  const connecting = Deno.connect({ hostname, port });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      connecting.then(closeQuietly, () => {});
      reject(new Error("timed out"));
    }, ms);
  });
  try {
    return await Promise.race([connecting, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Reads up to the end of the status line: "HTTP/1.1 204 No Content". */
async function readStatus(conn: Deno.Conn): Promise<number> {
  const buf = new Uint8Array(4096);
  let text = "";
  while (!text.includes("\r\n") && text.length < 4096) {
    const n = await conn.read(buf);
    if (n === null) break;
    text += new TextDecoder().decode(buf.subarray(0, n));
  }
  const m = /^HTTP\/1\.[01] (\d{3})/.exec(text);
  if (!m) throw new Error("not an HTTP answer");
  return Number(m[1]);
}

function closeQuietly(conn: Deno.Conn): void {
  try {
    conn.close();
  } catch { /* already closed */ }
}
