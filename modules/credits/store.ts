import type { Balance, CoinDebits, LedgerEntry } from "../wallet/model.ts";
import type { CreditLogEntry, PushCount } from "./model.ts";

/**
 * KV keys of the credits:
 *  balance    accountId → number (whole credits; missing: not yet seeded, see `seed`)
 *  log        accountId, time, id → CreditLogEntry (kept 400 days)
 *  share      sharerId, memberId → { sharedAt, operatorId }
 *  pool       memberId → sharerId (the pool a member spends from)
 *  shareCount sharerId → number (members; checked against the limit in the same commit)
 *  pushes     accountId, "YYYY-MM" → PushCount (kept 62 days)
 */
const K = {
  balance: (id: string) => ["credits", "balance", id],
  log: (id: string, time?: string, entryId?: string) =>
    time ? ["credits", "log", id, time, entryId!] : ["credits", "log", id],
  share: (sharer: string, member?: string) =>
    member ? ["credits", "share", sharer, member] : ["credits", "share", sharer],
  pool: (member: string) => ["credits", "pool", member],
  shareCount: (sharer: string) => ["credits", "shareCount", sharer],
  pushes: (id: string, month: string) => ["credits", "pushes", id, month],
};

const LOG_TTL_MS = 400 * 86_400_000;
const PUSH_TTL_MS = 62 * 86_400_000;

/** The credits an account starts with when its balance is first read (its free credits). */
export type Seed = (accountId: string) => Promise<number>;

export interface ShareRecord {
  memberId: string;
  sharedAt: string;
  operatorId: string;
}

export type ShareResult = "ok" | "limit" | "alreadyShared";

const entryId = () => crypto.randomUUID();
const now = () => new Date().toISOString();

/**
 * Credit balances, their log, shared pools and the monthly push counts. Every change is one
 * commit checked against what it read (retried on a concurrent change); a balance that was
 * never written is seeded with the account's free credits inside the first commit touching it.
 */
export class CreditStore {
  /** The last queued push or spend per account (see `inTurn`). */
  private turns = new Map<string, Promise<unknown>>();

  constructor(private readonly kv: Deno.Kv, private readonly coins: CoinDebits) {}

  /**
   * Runs an account's pushes and spends one after another in this process: a burst of alerts
   * of one account would otherwise collide on its count and retry, 50 at once costing several
   * times a lone push (tests/bench/credits_push_bench.ts). Commits stay checked, so other
   * processes remain safe.
   */
  private inTurn<T>(id: string, run: () => Promise<T>): Promise<T> {
    const result = (this.turns.get(id) ?? Promise.resolve()).then(run);
    const done = result.catch(() => {});
    this.turns.set(id, done);
    done.then(() => {
      if (this.turns.get(id) === done) this.turns.delete(id);
    });
    return result;
  }

  /** The balance and its read; a missing one is seeded (its write goes with the next commit). */
  private async read(id: string, seed: Seed) {
    const r = await this.kv.get<number>(K.balance(id));
    return { r, value: r.value ?? await seed(id), seeded: r.value === null };
  }

  /** Adds the balance change and its log entry (and the seed's entry when new) to `op`. */
  private write(
    op: Deno.AtomicOperation,
    b: Awaited<ReturnType<CreditStore["read"]>>,
    id: string,
    e: Omit<CreditLogEntry, "id" | "time" | "balance" | "accountId">,
  ): number {
    const balance = b.value + e.credits;
    op.check(b.r).set(K.balance(id), balance);
    if (b.seeded) {
      // The free credits are logged a millisecond before what the commit does with them.
      const at = new Date(Date.now() - 1).toISOString();
      op.set(
        K.log(id, at, "0"),
        {
          id: entryId(),
          accountId: id,
          time: at,
          kind: "free",
          credits: b.value,
          balance: b.value,
        } satisfies CreditLogEntry,
        { expireIn: LOG_TTL_MS },
      );
    }
    if (e.credits !== 0) {
      const entry: CreditLogEntry = { ...e, id: entryId(), accountId: id, time: now(), balance };
      op.set(K.log(id, entry.time, entry.id), entry, { expireIn: LOG_TTL_MS });
    }
    return balance;
  }

  /** An account's balance, seeding (and logging) its free credits on the first read. */
  async balance(id: string, seed: Seed): Promise<number> {
    for (;;) {
      const b = await this.read(id, seed);
      if (!b.seeded) return b.value;
      const op = this.kv.atomic();
      this.write(op, b, id, { kind: "free", credits: 0 });
      if ((await op.commit()).ok) return b.value;
    }
  }

  /**
   * Credits bought with coins: the credits, their log entry, and the wallet's debit with its
   * ledger entry in one commit. null, writing nothing, when the coins are too few.
   */
  async buy(
    id: string,
    credits: number,
    debit: LedgerEntry,
    unlimited: boolean,
    seed: Seed,
    operatorId: string,
  ): Promise<{ credits: number; wallet: Balance } | null> {
    for (;;) {
      const b = await this.read(id, seed);
      const op = this.kv.atomic();
      const coins = await this.coins.addDebit(op, debit, unlimited);
      if (!coins) return null;
      const balance = this.write(op, b, id, {
        kind: "buy",
        credits,
        coinCents: -debit.coinCents,
        operatorId,
      });
      if ((await op.commit()).ok) return { credits: balance, wallet: coins };
    }
  }

  /** Credits added (a package's SMS count); the new balance. */
  async grant(id: string, credits: number, seed: Seed, operatorId: string): Promise<number> {
    for (;;) {
      const b = await this.read(id, seed);
      const op = this.kv.atomic();
      const balance = this.write(op, b, id, { kind: "grant", credits, operatorId });
      if ((await op.commit()).ok) return balance;
    }
  }

  /**
   * Reads what a spend by `id` would draw on: the shared pool it belongs to (first), then its
   * own pool. The pool key's read is checked too, so an unshare in between retries.
   */
  private async payers(id: string, seed: Seed) {
    const pool = await this.kv.get<string>(K.pool(id));
    const ids = pool.value ? [pool.value, id] : [id];
    const reads = [];
    for (const p of ids) reads.push({ id: p, b: await this.read(p, seed) });
    return { pool, reads };
  }

  /**
   * Takes `credits` for a spend by `id` from the first pool that has them. Returns whose pool
   * paid, or null (nothing written) when none has enough.
   */
  spend(
    id: string,
    credits: number,
    kind: "sms" | "push",
    detail: string,
    seed: Seed,
  ): Promise<string | null> {
    return this.inTurn(id, () => this.spendNow(id, credits, kind, detail, seed));
  }

  private async spendNow(
    id: string,
    credits: number,
    kind: "sms" | "push",
    detail: string,
    seed: Seed,
  ): Promise<string | null> {
    for (;;) {
      const { pool, reads } = await this.payers(id, seed);
      const payer = reads.find((p) => p.b.value >= credits);
      if (!payer) return null;
      const op = this.kv.atomic().check(pool);
      this.write(op, payer.b, payer.id, {
        kind,
        credits: -credits,
        detail,
        ...(payer.id !== id ? { spenderId: id } : {}),
      });
      if ((await op.commit()).ok) return payer.id;
    }
  }

  /** Credits given back to the pool that paid for something that then failed (an SMS). */
  async refund(payerId: string, credits: number, detail: string, seed: Seed): Promise<void> {
    for (;;) {
      const b = await this.read(payerId, seed);
      const op = this.kv.atomic();
      this.write(op, b, payerId, { kind: "refund", credits, detail });
      if ((await op.commit()).ok) return;
    }
  }

  /**
   * Counts one push of `id` in `month` (one commit with the count's check): free while the
   * month's free pushes are under `quota`, else paid with `credits` from its pools in the same
   * commit, else counted as skipped.
   */
  takePush(
    id: string,
    month: string,
    quota: number,
    credits: number,
    detail: string,
    seed: Seed,
  ): Promise<"free" | "paid" | "skipped"> {
    return this.inTurn(id, () => this.takePushNow(id, month, quota, credits, detail, seed));
  }

  private async takePushNow(
    id: string,
    month: string,
    quota: number,
    credits: number,
    detail: string,
    seed: Seed,
  ): Promise<"free" | "paid" | "skipped"> {
    for (;;) {
      const r = await this.kv.get<PushCount>(K.pushes(id, month));
      const count = r.value ?? { free: 0, paid: 0, skipped: 0 };
      const op = this.kv.atomic().check(r);
      let result: "free" | "paid" | "skipped";
      if (count.free < quota) {
        result = "free";
      } else {
        const { pool, reads } = await this.payers(id, seed);
        const payer = reads.find((p) => p.b.value >= credits);
        result = payer ? "paid" : "skipped";
        if (payer) {
          op.check(pool);
          this.write(op, payer.b, payer.id, {
            kind: "push",
            credits: -credits,
            detail,
            ...(payer.id !== id ? { spenderId: id } : {}),
          });
        }
      }
      op.set(K.pushes(id, month), { ...count, [result]: count[result] + 1 }, {
        expireIn: PUSH_TTL_MS,
      });
      if ((await op.commit()).ok) return result;
    }
  }

  async pushes(id: string, month: string): Promise<PushCount> {
    return (await this.kv.get<PushCount>(K.pushes(id, month))).value ??
      { free: 0, paid: 0, skipped: 0 };
  }

  /**
   * Shares `sharer`'s pool with `member`: refused when the sharer has `max` members already or
   * the member spends from another pool (sharing again with the same sharer is a no-op).
   */
  async share(
    sharer: string,
    member: string,
    max: number,
    operatorId: string,
  ): Promise<ShareResult> {
    for (;;) {
      const [pool, count] = await this.kv.getMany<[string, number]>([
        K.pool(member),
        K.shareCount(sharer),
      ]);
      if (pool.value === sharer) return "ok";
      if (pool.value) return "alreadyShared";
      if ((count.value ?? 0) >= max) return "limit";
      const record: ShareRecord = { memberId: member, sharedAt: now(), operatorId };
      const r = await this.kv.atomic().check(pool).check(count)
        .set(K.pool(member), sharer)
        .set(K.share(sharer, member), record)
        .set(K.shareCount(sharer), (count.value ?? 0) + 1)
        .commit();
      if (r.ok) return "ok";
    }
  }

  /** Ends `member`'s use of `sharer`'s pool; false when it was not using it. */
  async unshare(sharer: string, member: string): Promise<boolean> {
    for (;;) {
      const [pool, count] = await this.kv.getMany<[string, number]>([
        K.pool(member),
        K.shareCount(sharer),
      ]);
      if (pool.value !== sharer) return false;
      const r = await this.kv.atomic().check(pool).check(count)
        .delete(K.pool(member))
        .delete(K.share(sharer, member))
        .set(K.shareCount(sharer), Math.max(0, (count.value ?? 1) - 1))
        .commit();
      if (r.ok) return true;
    }
  }

  /** The accounts a pool is shared with, in id order. */
  async shares(sharer: string): Promise<ShareRecord[]> {
    const out: ShareRecord[] = [];
    for await (const e of this.kv.list<ShareRecord>({ prefix: K.share(sharer) })) {
      out.push(e.value);
    }
    return out;
  }

  /** The sharer whose pool `member` spends from, or null. */
  async poolOf(member: string): Promise<string | null> {
    return (await this.kv.get<string>(K.pool(member))).value;
  }

  /** One page of an account's credits log, newest first, and how many entries it has. */
  async log(id: string, offset: number, limit: number) {
    const list: CreditLogEntry[] = [];
    let total = 0;
    for await (const e of this.kv.list<CreditLogEntry>({ prefix: K.log(id) }, { reverse: true })) {
      if (total++ >= offset && list.length < limit) list.push(e.value);
    }
    return { total, list };
  }
}
