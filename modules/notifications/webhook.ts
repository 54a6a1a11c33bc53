/** Retries after the first attempt; the delay doubles each time (base, 2×, 4×). */
export const WEBHOOK_RETRIES = 3;
const TIMEOUT_MS = 10_000;
const LOG_TTL_MS = 30 * 86_400_000;

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
 * Keys: ["notifications", "webhookLog", userId, createdAt, id] DeliveryLog.
 */
export class WebhookSender {
  private inflight = new Set<Promise<DeliveryLog>>();

  constructor(private readonly kv: Deno.Kv, private readonly retryBaseMs: number) {}

  /** Starts a delivery in the background; `idle()` waits for all of them (tests, shutdown). */
  deliver(
    userId: string,
    url: string,
    secret: string,
    event: string,
    payload: unknown,
  ): Promise<DeliveryLog> {
    const p = this.run(userId, url, secret, event, payload).finally(() => this.inflight.delete(p));
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
    const body = JSON.stringify({
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
      try {
        const res = await fetch(url, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            "user-agent": "TrackingPlatform-Webhook/1",
            "x-webhook-id": log.id,
            "x-webhook-timestamp": timestamp,
            "x-webhook-signature": `sha256=${await sign(secret, timestamp, body)}`,
          },
          body,
          redirect: "manual",
          signal: AbortSignal.timeout(TIMEOUT_MS),
        });
        await res.body?.cancel();
        entry.status = res.status;
        log.ok = res.status >= 200 && res.status < 300;
      } catch (e) {
        entry.error = (e as Error).message.slice(0, 200);
      }
      log.attempts.push(entry);
      await this.kv.set(["notifications", "webhookLog", userId, log.createdAt, log.id], log, {
        expireIn: LOG_TTL_MS,
      });
    }
    return log;
  }

  async logs(userId: string, limit = 50): Promise<DeliveryLog[]> {
    const out: DeliveryLog[] = [];
    const iter = this.kv.list<DeliveryLog>({ prefix: ["notifications", "webhookLog", userId] }, {
      reverse: true,
      limit,
    });
    for await (const e of iter) out.push(e.value);
    return out;
  }
}
