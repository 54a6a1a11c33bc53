/**
 * Per-account motion rules: read synchronously by the analysis (all accounts' rules are small
 * and loaded at start), changed through the API. A change is saved together with recompute
 * marks for the account's devices (their last RULES_RECOMPUTE_DAYS days); ./recompute.ts
 * works them off in the background and reports progress here. Older segments keep the rules
 * they were made with.
 */
import type { Session } from "../../lib/http/env.ts";
import { addDays, dayOf } from "./days.ts";
import type { MotionStore, RulesRecord } from "./store.ts";
import { DEFAULT_MOTION_RULES, type MotionRules } from "./types.ts";

/** Days recomputed when an account's rules change (today included). */
export const RULES_RECOMPUTE_DAYS = 31;

const DEFAULTS: RulesRecord = { rules: DEFAULT_MOTION_RULES, changedAt: 0 };

/** The rules in force, by account (synchronous: the analysis reads them per new device). */
export class RulesBook {
  private byAccount = new Map<string, RulesRecord>();
  private store: MotionStore | null = null;
  /** Told the accounts whose rules changed here (cluster mode's sync re-reads them elsewhere). */
  onChanged: (userIds: string[]) => void = () => {};
  /** Told the accounts whose rules another instance changed, once re-read (cluster mode: the
   * recompute looks at the marks that change left, ./service.ts). */
  onReloaded: (userIds: string[]) => void = () => {};

  async load(store: MotionStore): Promise<void> {
    this.store = store;
    this.byAccount = await store.loadRules();
  }

  /** Re-reads the rules of accounts another instance changed. */
  async reload(userIds: string[]): Promise<void> {
    for (const userId of userIds) {
      const record = await this.store?.rulesOf(userId);
      if (record) this.byAccount.set(userId, record);
      else this.byAccount.delete(userId);
    }
    this.onReloaded(userIds);
  }

  of(userId: string): RulesRecord {
    return this.byAccount.get(userId) ?? DEFAULTS;
  }

  /** After the rules were saved here. */
  put(userId: string, record: RulesRecord): void {
    this.byAccount.set(userId, record);
    this.onChanged([userId]);
  }
}

/** A rules-change recompute under way: devices done of the devices marked. */
export interface RecomputeProgress {
  done: number;
  total: number;
}

export interface RulesAnswer {
  userId: string;
  rules: MotionRules;
  defaults: MotionRules;
  /** ISO-8601 UTC time of the last change, null while the defaults apply. */
  changedAt: string | null;
  /** Null when no recompute of this account runs. */
  recomputing: RecomputeProgress | null;
}

/** What the rules service needs of its neighbours (app/compose.ts). */
export interface RulesDeps {
  store: MotionStore;
  book: RulesBook;
  /** Refuses (throws the catalogue's no-permission) unless the account is in the caller's tree;
   * null `userId` means the caller's own (working) account. */
  account(session: Session, userId: string | null): Promise<string>;
  imeisOf(userId: string): string[];
  /** Starts the background recompute of what is marked. */
  kick(): void;
  /**
   * Cluster mode: how many of the account's devices are still marked for a rules recompute,
   * counted in the store (other instances work off the devices they analyse, and the change
   * may have been made elsewhere). Absent in single mode: the counter in memory is the truth.
   */
  marksLeft?(userId: string): Promise<number>;
}

export class MotionRulesService {
  /** userId → progress of its running rules recompute (single mode). */
  readonly progress = new Map<string, RecomputeProgress>();

  constructor(private readonly d: RulesDeps) {}

  async get(session: Session, userId: string | null): Promise<RulesAnswer> {
    const id = await this.d.account(session, userId);
    return this.answer(id);
  }

  /** Changes some of an account's thresholds; its devices' last 31 days are recomputed. */
  async set(
    session: Session,
    userId: string | null,
    change: Partial<MotionRules>,
    now = Date.now(),
  ): Promise<RulesAnswer> {
    const id = await this.d.account(session, userId);
    const rules = { ...this.d.book.of(id).rules, ...change };
    const record: RulesRecord = { rules, changedAt: now };
    const imeis = this.d.imeisOf(id);
    const from = addDays(dayOf(now), -(RULES_RECOMPUTE_DAYS - 1));
    await this.d.store.saveRules(id, record, imeis, from);
    this.d.book.put(id, record);
    if (imeis.length && !this.d.marksLeft) this.progress.set(id, { done: 0, total: imeis.length });
    this.d.kick();
    return this.answer(id);
  }

  /** The recompute finished one device of an account's rules change. */
  deviceDone(userId: string): void {
    const p = this.progress.get(userId);
    if (!p) return;
    p.done = Math.min(p.total, p.done + 1);
    if (p.done >= p.total) this.progress.delete(userId);
  }

  private async answer(userId: string): Promise<RulesAnswer> {
    const record = this.d.book.of(userId);
    const p = this.d.marksLeft ? await this.progressInStore(userId) : this.progress.get(userId);
    return {
      userId,
      rules: record.rules,
      defaults: DEFAULT_MOTION_RULES,
      changedAt: record.changedAt ? new Date(record.changedAt).toISOString() : null,
      recomputing: p ? { ...p } : null,
    };
  }

  /** Cluster mode: the devices marked of the account's devices (all marked by the change). */
  private async progressInStore(userId: string): Promise<RecomputeProgress | undefined> {
    const left = await this.d.marksLeft!(userId);
    if (!left) return undefined;
    const total = Math.max(left, this.d.imeisOf(userId).length);
    return { done: total - left, total };
  }
}
