/**
 * Announcements' KV keys, the only file that touches them: each is kept under the account
 * whose subtree receives it, so a user's announcements are one prefix read per ancestor;
 * seen marks are per logged-in account.
 */
import type { Announcement } from "./model.ts";

const K = {
  item: (ownerId: string, id: string) => ["announcement", "by", ownerId, id],
  of: (ownerId: string) => ["announcement", "by", ownerId],
  seen: (accountId: string, id: string) => ["announcement", "seen", accountId, id],
  seenOf: (accountId: string) => ["announcement", "seen", accountId],
};

export class AnnouncementStore {
  constructor(private readonly kv: Deno.Kv) {}

  async save(a: Announcement): Promise<void> {
    await this.kv.set(K.item(a.ownerId, a.id), a);
  }

  /** Every announcement kept under these accounts. */
  async ofOwners(ownerIds: string[]): Promise<Announcement[]> {
    const out: Announcement[] = [];
    for (const owner of ownerIds) {
      for await (const e of this.kv.list<Announcement>({ prefix: K.of(owner) })) out.push(e.value);
    }
    return out;
  }

  async countOf(ownerId: string): Promise<number> {
    let n = 0;
    for await (const _ of this.kv.list({ prefix: K.of(ownerId) })) n++;
    return n;
  }

  async get(ownerId: string, id: string): Promise<Announcement | null> {
    return (await this.kv.get<Announcement>(K.item(ownerId, id))).value;
  }

  async delete(ownerId: string, id: string): Promise<void> {
    await this.kv.delete(K.item(ownerId, id));
  }

  /** The ids this account has seen. */
  async seenBy(accountId: string): Promise<Set<string>> {
    const ids = new Set<string>();
    for await (const e of this.kv.list({ prefix: K.seenOf(accountId) })) {
      ids.add(e.key.at(-1) as string);
    }
    return ids;
  }

  /** Marks expire after the longest period: by then their announcement has ended. */
  async markSeen(accountId: string, ids: string[], at: string, keepMs: number): Promise<void> {
    const op = this.kv.atomic();
    for (const id of ids) op.set(K.seen(accountId, id), at, { expireIn: keepMs });
    await op.commit();
  }
}
