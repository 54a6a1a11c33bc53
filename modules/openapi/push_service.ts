/**
 * The push endpoints an account registers (POST /v3/new/openapi/push/*): the webhook address
 * rules of alert webhooks apply (WebhookSender.checkUrl: no private or internal address),
 * at most PUSH_ENDPOINT_LIMIT each. Kept in memory by account for the delivery's lookups.
 */
import { BizError } from "../../lib/errors.ts";
import type { Session } from "../../lib/http/env.ts";
import type { AccessGuard } from "../accounts/access.ts";
import { newSecret, type WebhookSender } from "../notifications/webhook.ts";
import {
  PUSH_ENDPOINT_LIMIT,
  type PushEndpoint,
  type PushFormat,
  type PushKind,
} from "./push_model.ts";
import type { PushStore } from "./store_push.ts";

/** Event names of Open API pushes in the webhook delivery log. */
export const PUSH_EVENT_PREFIX = "openapi.";

export class PushEndpoints {
  private byUser = new Map<string, PushEndpoint[]>();
  /** Told the accounts whose endpoints were written here (cluster mode's sync). */
  onChanged: (userIds: string[]) => void = () => {};

  constructor(
    private readonly store: PushStore,
    private readonly access: AccessGuard,
    private readonly webhooks: Pick<WebhookSender, "checkUrl" | "logs">,
  ) {}

  async load(): Promise<void> {
    this.byUser.clear();
    for (const e of await this.store.all()) this.index(e);
  }

  private index(e: PushEndpoint): void {
    this.byUser.set(e.userId, [...(this.byUser.get(e.userId) ?? []), e]);
  }

  /** Endpoints of these accounts that receive `kind`. */
  receiving(userIds: readonly string[], kind: PushKind): PushEndpoint[] {
    const out: PushEndpoint[] = [];
    for (const id of userIds) {
      for (const e of this.byUser.get(id) ?? []) if (e.kinds.includes(kind)) out.push(e);
    }
    return out;
  }

  /** True when some account has an endpoint for `kind` (positions skip all work otherwise). */
  anyReceiving(kind: PushKind): boolean {
    for (const list of this.byUser.values()) {
      if (list.some((e) => e.kinds.includes(kind))) return true;
    }
    return false;
  }

  async add(
    session: Session,
    input: { url: string; kinds: PushKind[]; format: PushFormat },
  ): Promise<PushEndpoint> {
    const { owner } = await this.access.caller(session);
    const mine = this.byUser.get(owner.id) ?? [];
    if (mine.length >= PUSH_ENDPOINT_LIMIT) {
      throw new BizError("pushEndpointLimit", { max: PUSH_ENDPOINT_LIMIT });
    }
    await this.webhooks.checkUrl(input.url);
    const endpoint: PushEndpoint = {
      id: crypto.randomUUID(),
      userId: owner.id,
      url: input.url,
      kinds: [...new Set(input.kinds)],
      format: input.format,
      secret: newSecret(),
      createdAt: new Date().toISOString(),
    };
    await this.store.save(endpoint);
    this.index(endpoint);
    this.onChanged([owner.id]);
    return endpoint;
  }

  async list(session: Session): Promise<PushEndpoint[]> {
    const { owner } = await this.access.caller(session);
    return this.byUser.get(owner.id) ?? [];
  }

  async remove(session: Session, id: string): Promise<void> {
    const { owner } = await this.access.caller(session);
    const mine = this.byUser.get(owner.id) ?? [];
    const found = mine.find((e) => e.id === id);
    if (!found) throw new BizError("pushEndpointNotFound");
    await this.store.remove(found);
    this.byUser.set(owner.id, mine.filter((e) => e !== found));
    this.onChanged([owner.id]);
  }

  /** Re-reads the endpoints of accounts another instance changed. */
  async reload(userIds: string[]): Promise<void> {
    for (const userId of userIds) {
      const list = await this.store.ofUser(userId);
      if (list.length) this.byUser.set(userId, list);
      else this.byUser.delete(userId);
    }
  }

  /** The account's recent push deliveries (the webhook delivery log, pushes only). */
  async log(session: Session, limit = 50) {
    const { owner } = await this.access.caller(session);
    return (await this.webhooks.logs(owner.id, limit * 4))
      .filter((l) => l.event.startsWith(PUSH_EVENT_PREFIX)).slice(0, limit);
  }
}
