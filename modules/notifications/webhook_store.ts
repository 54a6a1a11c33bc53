import type { DeliveryLog } from "./webhook.ts";

/** How long a webhook delivery log entry is kept. */
const LOG_TTL_MS = 30 * 86_400_000;

/** The webhook delivery log. Keys: ["notifications", "webhookLog", userId, createdAt, id]. */
export class WebhookLogStore {
  constructor(private readonly kv: Deno.Kv) {}

  /** Writes (or rewrites, after another attempt) one delivery's entry. */
  async save(log: DeliveryLog): Promise<void> {
    await this.kv.set(["notifications", "webhookLog", log.userId, log.createdAt, log.id], log, {
      expireIn: LOG_TTL_MS,
    });
  }

  /** The account's newest entries first. */
  async list(userId: string, limit: number): Promise<DeliveryLog[]> {
    const out: DeliveryLog[] = [];
    const iter = this.kv.list<DeliveryLog>({ prefix: ["notifications", "webhookLog", userId] }, {
      reverse: true,
      limit,
    });
    for await (const e of iter) out.push(e.value);
    return out;
  }
}
