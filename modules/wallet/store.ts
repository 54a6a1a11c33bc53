import type { Balance, CardCode, CardType, Delta, LedgerEntry, LedgerKind, Rate } from "./model.ts";
import { normalizeBalance } from "./model.ts";

/**
 * KV keys of the wallet:
 *  balance   accountId → Balance
 *  ledger    accountId, time, id → LedgerEntry (newest last)
 *  rate      mcType → Rate | { removed: true }
 *  code      card code → CardCode (recharge card codes, redeemed once)
 */
const K = {
  balance: (id: string) => ["wallet", "balance", id],
  ledger: (id: string, time?: string, entryId?: string) =>
    time ? ["wallet", "ledger", id, time, entryId!] : ["wallet", "ledger", id],
  rate: (mcType?: string) => (mcType ? ["wallet", "rate", mcType] : ["wallet", "rate"]),
  code: (code?: string) => (code ? ["wallet", "code", code] : ["wallet", "code"]),
};

/** A filter of one account's log: kinds and a time range (ISO strings, end exclusive). */
export interface LedgerFilter {
  kinds: readonly LedgerKind[];
  from?: string;
  to?: string;
}

export type RedeemResult =
  | { ok: true; balance: Balance }
  | { ok: false; reason: "licenceMissing" | "licenceUsed" | "licenceWrongType"; type?: CardType };

export type StoredRate = Rate | { removed: true };

export class WalletStore {
  constructor(private readonly kv: Deno.Kv) {}

  async balance(accountId: string): Promise<Balance> {
    return normalizeBalance((await this.kv.get<Balance>(K.balance(accountId))).value);
  }

  /**
   * Applies balance changes and their log entries in one commit, checked against the read
   * balances (retried on a concurrent change). Returns false, writing nothing, when a balance
   * would go below zero. `unlimited` accounts (the platform administrator) issue without a balance.
   */
  async apply(
    deltas: Delta[],
    entries: LedgerEntry[],
    unlimited: (accountId: string) => boolean = () => false,
  ): Promise<{ ok: boolean; balances: Map<string, Balance> }> {
    for (;;) {
      const ids = [...new Set(deltas.map((d) => d.accountId))];
      const reads = await this.kv.getMany<Balance[]>(ids.map(K.balance));
      const balances = new Map<string, Balance>();
      ids.forEach((id, i) => balances.set(id, normalizeBalance(reads[i].value)));
      for (const d of deltas) {
        const b = balances.get(d.accountId)!;
        b.coinCents += d.coinCents ?? 0;
        for (const [type, n] of Object.entries(d.cards ?? {})) {
          b.cards[type as keyof Balance["cards"]] += n ?? 0;
        }
      }
      for (const [id, b] of balances) {
        const negative = b.coinCents < 0 || Object.values(b.cards).some((n) => n < 0);
        if (negative && !unlimited(id)) return { ok: false, balances };
      }
      const op = this.kv.atomic();
      reads.forEach((r) => op.check(r));
      for (const [id, b] of balances) if (!unlimited(id)) op.set(K.balance(id), b);
      for (const e of entries) op.set(K.ledger(e.accountId, e.time, e.id), e);
      if ((await op.commit()).ok) return { ok: true, balances };
    }
  }

  /** Log entries of an account, newest first, one page. */
  async ledger(accountId: string, offset: number, limit: number): Promise<LedgerEntry[]> {
    const out: LedgerEntry[] = [];
    let skipped = 0;
    for await (
      const e of this.kv.list<LedgerEntry>({ prefix: K.ledger(accountId) }, { reverse: true })
    ) {
      if (skipped++ < offset) continue;
      out.push(e.value);
      if (out.length >= limit) break;
    }
    return out;
  }

  async ledgerCount(accountId: string): Promise<number> {
    let n = 0;
    for await (const _ of this.kv.list({ prefix: K.ledger(accountId) })) n++;
    return n;
  }

  /**
   * One page of an account's log entries of the given kinds in a time range, newest first,
   * and how many there are in all.
   */
  async ledgerPage(
    accountId: string,
    filter: LedgerFilter,
    offset: number,
    limit: number,
  ): Promise<{ total: number; list: LedgerEntry[] }> {
    const kinds = new Set<string>(filter.kinds);
    const prefix = K.ledger(accountId);
    const selector = {
      start: filter.from ? [...prefix, filter.from] : prefix,
      end: filter.to ? [...prefix, filter.to] : [...prefix, "\uffff"],
    };
    const list: LedgerEntry[] = [];
    let total = 0;
    for await (const e of this.kv.list<LedgerEntry>(selector, { reverse: true })) {
      if (!kinds.has(e.value.kind)) continue;
      if (total++ >= offset && list.length < limit) list.push(e.value);
    }
    return { total, list };
  }

  /** Codes already stored among the given ones (import skips them). */
  async existingCodes(codes: string[]): Promise<Set<string>> {
    const out = new Set<string>();
    for (let i = 0; i < codes.length; i += 10) {
      const reads = await this.kv.getMany<CardCode[]>(codes.slice(i, i + 10).map(K.code));
      for (const r of reads) if (r.value) out.add(r.value.code);
    }
    return out;
  }

  /**
   * Stores new card codes, 300 a commit, each only if the code is not stored yet; answers
   * how many were stored (a code that appeared meanwhile is skipped, never overwritten).
   */
  async addCodes(codes: CardCode[]): Promise<number> {
    let added = 0;
    for (let i = 0; i < codes.length; i += 300) {
      const chunk = codes.slice(i, i + 300);
      const op = this.kv.atomic();
      for (const c of chunk) {
        op.check({ key: K.code(c.code), versionstamp: null }).set(K.code(c.code), c);
      }
      if ((await op.commit()).ok) {
        added += chunk.length;
        continue;
      }
      // One of them exists now: store the rest one by one.
      for (const c of chunk) {
        const r = await this.kv.atomic().check({ key: K.code(c.code), versionstamp: null })
          .set(K.code(c.code), c).commit();
        if (r.ok) added++;
      }
    }
    return added;
  }

  /** Card codes in code order, optionally only used or unused ones; one page and the total. */
  async codes(
    used: boolean | undefined,
    offset: number,
    limit: number,
  ): Promise<{ total: number; list: CardCode[] }> {
    const list: CardCode[] = [];
    let total = 0;
    for await (const e of this.kv.list<CardCode>({ prefix: K.code() })) {
      if (used !== undefined && Boolean(e.value.usedBy) !== used) continue;
      if (total++ >= offset && list.length < limit) list.push(e.value);
    }
    return { total, list };
  }

  /**
   * Redeems a code into an account's card balance: the code marked used, the balance and the
   * log entry written in one commit checked against both reads (a code races only once).
   */
  async redeem(
    code: string,
    expected: CardType,
    accountId: string,
    entry: (c: CardCode) => LedgerEntry,
  ): Promise<RedeemResult> {
    for (;;) {
      const [c, b] = await this.kv.getMany<[CardCode, Balance]>([
        K.code(code),
        K.balance(accountId),
      ]);
      if (!c.value) return { ok: false, reason: "licenceMissing" };
      if (c.value.usedBy) return { ok: false, reason: "licenceUsed" };
      if (c.value.type !== expected) {
        return { ok: false, reason: "licenceWrongType", type: c.value.type };
      }
      const balance = normalizeBalance(b.value);
      balance.cards[c.value.type] += 1;
      const e = entry(c.value);
      const used: CardCode = { ...c.value, usedBy: accountId, usedAt: e.time };
      const r = await this.kv.atomic().check(c).check(b)
        .set(K.code(code), used)
        .set(K.balance(accountId), balance)
        .set(K.ledger(accountId, e.time, e.id), e)
        .commit();
      if (r.ok) return { ok: true, balance };
    }
  }

  async rates(): Promise<Map<string, StoredRate>> {
    const out = new Map<string, StoredRate>();
    for await (const e of this.kv.list<StoredRate>({ prefix: K.rate() })) {
      out.set(String(e.key.at(-1)), e.value);
    }
    return out;
  }

  async rate(mcType: string): Promise<StoredRate | null> {
    return (await this.kv.get<StoredRate>(K.rate(mcType))).value;
  }

  async setRate(mcType: string, rate: StoredRate): Promise<void> {
    await this.kv.set(K.rate(mcType), rate);
  }

  /**
   * CoinDebits (model.ts): adds a debit of an account's coins and its log entry to another
   * module's commit `op` (credits bought with coins: both in one atomic), checked against the
   * balance read here. The balance after it, or null, adding nothing, when too few coins.
   * An `unlimited` account (the platform administrator) keeps no balance: only the entry.
   */
  async addDebit(
    op: Deno.AtomicOperation,
    entry: LedgerEntry,
    unlimited: boolean,
  ): Promise<Balance | null> {
    const read = await this.kv.get<Balance>(K.balance(entry.accountId));
    const balance = normalizeBalance(read.value);
    balance.coinCents += entry.coinCents;
    if (!unlimited) {
      if (balance.coinCents < 0) return null;
      op.check(read).set(K.balance(entry.accountId), balance);
    }
    op.set(K.ledger(entry.accountId, entry.time, entry.id), entry);
    return balance;
  }
}
