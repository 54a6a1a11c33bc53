import { nextSequence } from "../../lib/kv/open.ts";
import { type Account, type AccountRecords, type AccountSummary, childPath } from "./model.ts";

/**
 * All KV keys of the accounts area. Indexes:
 *  byLogin    lower-cased login → id (uniqueness)
 *  children   parentId, id       (direct children, for the tree)
 *  ancestor   ancestorId, id     (whole subtree listing, one entry per ancestor)
 *  virtual    masterId, id       (virtual accounts of a master)
 */
const K = {
  byId: (id: string) => ["accounts", "byId", id],
  byLogin: (login: string) => ["accounts", "byLogin", login.toLowerCase()],
  children: (parentId: string, id?: string) =>
    id === undefined ? ["accounts", "children", parentId] : ["accounts", "children", parentId, id],
  ancestor: (ancestorId: string, id?: string) =>
    id === undefined
      ? ["accounts", "ancestor", ancestorId]
      : ["accounts", "ancestor", ancestorId, id],
  virtual: (masterId: string, id?: string) =>
    id === undefined ? ["accounts", "virtual", masterId] : ["accounts", "virtual", masterId, id],
  seq: ["accounts", "seq"],
  transferLock: ["accounts", "transferLock"],
};

export type { AccountSummary };

/** Deno KV refuses commits over 100 checks or 1000 mutations; stay a little below. */
const MAX_CHECKS = 90;
const MAX_MUTATIONS = 900;

const ancestorsOf = (a: Pick<Account, "fullParentId">) => a.fullParentId.split(",").filter(Boolean);
const summaryOf = (a: Account): AccountSummary => ({
  account: a.account,
  nickName: a.nickName,
  accountType: a.accountType,
  parentId: a.parentId,
  nodeId: a.nodeId,
});

export class AccountStore implements AccountRecords {
  constructor(private readonly kv: Deno.Kv) {}

  newId(): Promise<string> {
    return nextSequence(this.kv, K.seq).then(String);
  }

  async get(id: string): Promise<Account | null> {
    return (await this.kv.get<Account>(K.byId(id))).value;
  }

  async getMany(ids: string[]): Promise<Account[]> {
    const out: Account[] = [];
    for (let i = 0; i < ids.length; i += 10) {
      const res = await this.kv.getMany<Account[]>(ids.slice(i, i + 10).map(K.byId));
      for (const r of res) if (r.value) out.push(r.value);
    }
    return out;
  }

  async findIdByLogin(login: string): Promise<string | null> {
    return (await this.kv.get<string>(K.byLogin(login))).value;
  }

  /** Inserts a new account; false when the login is taken. */
  async insert(a: Account): Promise<boolean> {
    const op = this.kv.atomic()
      .check({ key: K.byLogin(a.account), versionstamp: null })
      .set(K.byId(a.id), a)
      .set(K.byLogin(a.account), a.id);
    if (a.virtual) op.set(K.virtual(a.virtual.masterId, a.id), null);
    else {
      if (a.parentId) op.set(K.children(a.parentId, a.id), null);
      for (const anc of ancestorsOf(a)) op.set(K.ancestor(anc, a.id), summaryOf(a));
    }
    return (await op.commit()).ok;
  }

  /**
   * Saves changed fields of an existing account, never its place in the tree, its login or
   * its master: those are taken from the stored record, so a record read before a
   * concurrent move cannot put the account back under its old ancestors. False (and nothing
   * written) when the account no longer exists, so a late save cannot bring it back.
   */
  async update(a: Account): Promise<boolean> {
    for (;;) {
      const current = await this.kv.get<Account>(K.byId(a.id));
      const stored = current.value;
      if (!stored) return false;
      const next: Account = {
        ...a,
        account: stored.account,
        parentId: stored.parentId,
        fullParentId: stored.fullParentId,
        virtual: stored.virtual && a.virtual
          ? { ...a.virtual, masterId: stored.virtual.masterId }
          : stored.virtual,
      };
      const op = this.kv.atomic().check(current).set(K.byId(a.id), next);
      if (!next.virtual) {
        for (const anc of ancestorsOf(next)) op.set(K.ancestor(anc, a.id), summaryOf(next));
      }
      if ((await op.commit()).ok) return true;
    }
  }

  /** Sets the MD5 verifier while the password is still the one it was derived from. */
  async setMd5Verifier(id: string, passwordHash: string, verifier: string): Promise<boolean> {
    for (;;) {
      const current = await this.kv.get<Account>(K.byId(id));
      if (!current.value || current.value.passwordHash !== passwordHash) return false;
      const next = { ...current.value, passwordMd5Hash: verifier };
      if ((await this.kv.atomic().check(current).set(K.byId(id), next).commit()).ok) return true;
    }
  }

  /** Deletes an account with the indexes of its stored record (a caller's copy may be stale). */
  async remove(a: Pick<Account, "id">): Promise<void> {
    for (;;) {
      const current = await this.kv.get<Account>(K.byId(a.id));
      const stored = current.value;
      if (!stored) return;
      const op = this.kv.atomic().check(current).delete(K.byId(stored.id))
        .delete(K.byLogin(stored.account));
      if (stored.virtual) op.delete(K.virtual(stored.virtual.masterId, stored.id));
      else {
        if (stored.parentId) op.delete(K.children(stored.parentId, stored.id));
        for (const anc of ancestorsOf(stored)) op.delete(K.ancestor(anc, stored.id));
      }
      if ((await op.commit()).ok) return;
    }
  }

  async hasChildren(id: string): Promise<boolean> {
    for await (const _ of this.kv.list({ prefix: K.children(id) }, { limit: 1 })) return true;
    return false;
  }

  async childIds(parentId: string): Promise<string[]> {
    const ids: string[] = [];
    for await (const e of this.kv.list({ prefix: K.children(parentId) })) {
      ids.push(String(e.key.at(-1)));
    }
    return ids;
  }

  /** Every account below ancestorId (not itself), with its summary, in id order. */
  async *subtree(ancestorId: string): AsyncGenerator<{ id: string; summary: AccountSummary }> {
    for await (const e of this.kv.list<AccountSummary>({ prefix: K.ancestor(ancestorId) })) {
      yield { id: String(e.key.at(-1)), summary: e.value };
    }
  }

  /** True when accounts below `id` sit on a service node other than `nodeId`. */
  async spansNodes(id: string, nodeId: number): Promise<boolean> {
    for await (const { summary } of this.subtree(id)) if (summary.nodeId !== nodeId) return true;
    return false;
  }

  async virtualIds(masterId: string): Promise<string[]> {
    const ids: string[] = [];
    for await (const e of this.kv.list({ prefix: K.virtual(masterId) })) {
      ids.push(String(e.key.at(-1)));
    }
    return ids;
  }

  /**
   * Moves `account` and its whole subtree under `target`, rewriting every tree index.
   * Records are re-read here (with a versionstamp check) rather than taken from the caller,
   * so a change saved since the caller loaded them (a password reset, an edit) is kept.
   * Done in batches that respect the KV limits of one commit (checks and mutations); a
   * batch whose records changed meanwhile is read and written again.
   */
  async move(account: Account, target: Account): Promise<void> {
    const root = await this.get(account.id);
    if (!root) return;
    const oldPrefix = root.fullParentId || ",";
    const newPrefix = childPath(target);
    const ids = [root.id, ...await this.collect(root.id)];
    const now = new Date().toISOString();
    for (let i = 0; i < ids.length;) {
      const op = this.kv.atomic();
      let checks = 0, mutations = 0, j = i;
      while (j < ids.length && checks < MAX_CHECKS) {
        const entry = await this.kv.get<Account>(K.byId(ids[j]));
        const a = entry.value;
        // Deleted or moved away meanwhile: only its check is needed.
        const moves = !!a && (a.id === root.id || a.fullParentId.startsWith(oldPrefix));
        const newPath = a && moves ? newPrefix + a.fullParentId.slice(oldPrefix.length) : "";
        const cost = a && moves
          ? ancestorsOf(a).length + newPath.split(",").filter(Boolean).length + 3
          : 0;
        if (j > i && mutations + cost > MAX_MUTATIONS) break;
        op.check(entry);
        checks++;
        mutations += cost;
        j++;
        if (!a || !moves) continue;
        for (const anc of ancestorsOf(a)) op.delete(K.ancestor(anc, a.id));
        if (a.id === root.id) {
          op.delete(K.children(a.parentId, a.id));
          a.parentId = target.id;
          op.set(K.children(target.id, a.id), null);
        }
        a.fullParentId = newPath;
        a.updatedAt = now;
        op.set(K.byId(a.id), a);
        for (const anc of ancestorsOf(a)) op.set(K.ancestor(anc, a.id), summaryOf(a));
      }
      if ((await op.commit()).ok) i = j;
    }
  }

  private async collect(ancestorId: string): Promise<string[]> {
    const ids: string[] = [];
    for await (const { id } of this.subtree(ancestorId)) ids.push(id);
    return ids;
  }

  /** The single transfer lock of spec §4: only one account/device transfer runs at a time. */
  async acquireTransferLock(owner: string, ttlMs = 10 * 60_000): Promise<boolean> {
    const held = await this.kv.get<{ owner: string; until: number }>(K.transferLock);
    // A lock whose holder died is stale after its ttl; KV expiry alone is only best-effort.
    if (held.value && held.value.until > Date.now()) return false;
    const res = await this.kv.atomic()
      .check(held)
      .set(K.transferLock, { owner, until: Date.now() + ttlMs }, { expireIn: ttlMs })
      .commit();
    return res.ok;
  }

  async releaseTransferLock(): Promise<void> {
    await this.kv.delete(K.transferLock);
  }
}
