import type { DemoApplication } from "./model.ts";

/** A set-password link as stored: the token's hash is the key. */
export interface PasswordLink {
  accountId: string;
  applicationId: string;
  expiresAt: number;
}

/**
 * Demo applications and their one-time set-password links.
 * Keys: ["demo", "app", id] DemoApplication (ids sort by time),
 *       ["demo", "pending", email] id (one pending application per address),
 *       ["demo", "link", tokenHash] PasswordLink (expires by KV TTL),
 *       ["demo", "linkOf", accountId] tokenHash (a new link replaces the previous one).
 */
export class DemoStore {
  constructor(private readonly kv: Deno.Kv) {}

  /** Stores a new application; false when the address already has one pending. */
  async insert(app: DemoApplication): Promise<boolean> {
    const pending = ["demo", "pending", app.email.toLowerCase()];
    const r = await this.kv.atomic()
      .check({ key: pending, versionstamp: null })
      .set(["demo", "app", app.id], app)
      .set(pending, app.id)
      .commit();
    return r.ok;
  }

  async get(id: string): Promise<DemoApplication | null> {
    return (await this.kv.get<DemoApplication>(["demo", "app", id])).value;
  }

  /** Writes a decision, unless another decision was written first (false then). */
  async decide(before: DemoApplication, after: DemoApplication): Promise<boolean> {
    const key = ["demo", "app", before.id];
    const current = await this.kv.get<DemoApplication>(key);
    if (!current.value || current.value.status !== before.status) return false;
    const r = await this.kv.atomic()
      .check(current)
      .set(key, after)
      .delete(["demo", "pending", before.email.toLowerCase()])
      .commit();
    return r.ok;
  }

  /** Every application, newest first. */
  async list(): Promise<DemoApplication[]> {
    const out: DemoApplication[] = [];
    for await (
      const e of this.kv.list<DemoApplication>({ prefix: ["demo", "app"] }, {
        reverse: true,
      })
    ) out.push(e.value);
    return out;
  }

  /** Saves a link and drops the account's previous one. */
  async putLink(hash: string, link: PasswordLink, ttlMs: number): Promise<void> {
    const previous = await this.kv.get<string>(["demo", "linkOf", link.accountId]);
    const op = this.kv.atomic()
      .set(["demo", "link", hash], link, { expireIn: ttlMs })
      .set(["demo", "linkOf", link.accountId], hash, { expireIn: ttlMs });
    if (previous.value) op.delete(["demo", "link", previous.value]);
    await op.commit();
  }

  /** Takes a link once: the first caller gets it, it is gone for everyone after. */
  async takeLink(hash: string): Promise<PasswordLink | null> {
    const entry = await this.kv.get<PasswordLink>(["demo", "link", hash]);
    if (!entry.value) return null;
    const r = await this.kv.atomic()
      .check(entry)
      .delete(["demo", "link", hash])
      .delete(["demo", "linkOf", entry.value.accountId])
      .commit();
    return r.ok ? entry.value : null;
  }
}
