import type { Balance, Delta, LedgerEntry, Rate } from "./model.ts";
import { emptyBalance } from "./model.ts";

/**
 * KV keys of the wallet:
 *  balance   accountId → Balance
 *  ledger    accountId, time, id → LedgerEntry (newest last)
 *  rate      mcType → Rate | { removed: true }
 */
const K = {
  balance: (id: string) => ["wallet", "balance", id],
  ledger: (id: string, time?: string, entryId?: string) =>
    time ? ["wallet", "ledger", id, time, entryId!] : ["wallet", "ledger", id],
  rate: (mcType?: string) => (mcType ? ["wallet", "rate", mcType] : ["wallet", "rate"]),
};

export type StoredRate = Rate | { removed: true };

export class WalletStore {
  constructor(private readonly kv: Deno.Kv) {}

  async balance(accountId: string): Promise<Balance> {
    return (await this.kv.get<Balance>(K.balance(accountId))).value ?? emptyBalance();
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
      ids.forEach((id, i) => balances.set(id, structuredClone(reads[i].value ?? emptyBalance())));
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
}
