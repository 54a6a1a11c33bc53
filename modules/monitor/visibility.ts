import type { Session } from "../../lib/http/env.ts";
import type { AccessGuard } from "../accounts/access.ts";
import type { AccountLookup } from "../accounts/model.ts";

/** How long a subtree listing is reused; new sub-accounts appear within this time. */
export const VISIBLE_TTL_MS = 15_000;

/**
 * The account ids whose devices a caller sees (its working account and every descendant),
 * cached per working account: the live stream checks every gateway event against this set,
 * and the map reloads objects every few seconds, so walking the tree each time would cost
 * a KV scan per refresh.
 */
export class VisibleAccounts {
  private cache = new Map<string, { at: number; ids: Set<string> }>();

  constructor(private readonly access: AccessGuard, private readonly accounts: AccountLookup) {}

  async of(session: Session): Promise<Set<string>> {
    const { owner } = await this.access.caller(session);
    return await this.below(owner.id);
  }

  /** Forgets every listing (accounts moved: subtrees changed). */
  clear(): void {
    this.cache.clear();
  }

  async below(rootId: string): Promise<Set<string>> {
    const hit = this.cache.get(rootId);
    if (hit && Date.now() - hit.at < VISIBLE_TTL_MS) return hit.ids;
    const ids = new Set([rootId]);
    for await (const { id } of this.accounts.subtree(rootId)) ids.add(id);
    if (this.cache.size > 5000) this.cache.clear(); // bound: one entry per active working account
    this.cache.set(rootId, { at: Date.now(), ids });
    return ids;
  }
}
