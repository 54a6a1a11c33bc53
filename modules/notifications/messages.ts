import type { MessageRecords } from "./store.ts";

/**
 * Message center (spec §3 message types): 1 device expired, 2 offline, 4 account move,
 * 5 device allocation, 6 balance reminder, 7 licence soon expires, 8 insurance soon expires,
 * 9 card expires, 10 card consumption, 11 device broadcasting fewer than 50 times, 12 a fleet
 * reminder due (modules/fleet/reminders*).
 */
export const MESSAGE_TYPES = [1, 2, 4, 5, 6, 7, 8, 9, 10, 11, 12] as const;
export type MessageType = typeof MESSAGE_TYPES[number];

/** Spec §9: balance reminders at 10:00 daily, on Mondays weekly, or on the 1st monthly. */
export const BALANCE_REMINDERS = ["off", "daily", "weekly", "monthly"] as const;
export type BalanceReminder = typeof BALANCE_REMINDERS[number];
/**
 * The balances the user watches and the level each must stay at (a reminder goes out while
 * one is under it); null: not watched. Without thresholds the built-in rule applies (payers
 * owning devices, under LOW_COINS Mi coins and no recharge cards).
 */
export interface BalanceThresholds {
  coins: number | null;
  cards: number | null;
  credits: number | null;
}
export interface MessagePrefs {
  balanceReminder: BalanceReminder;
  balanceThresholds?: BalanceThresholds;
}
export const DEFAULT_PREFS: MessagePrefs = { balanceReminder: "weekly" };

export interface PlatformMessage {
  id: string;
  userId: string;
  type: MessageType;
  imei: string | null;
  /**
   * Values for the type's i18n text: alerts.messages.text.<type>, or
   * alerts.messages.text.<type>_<variant> when params.variant is set.
   */
  params: Record<string, string | number>;
  /** Spec read filter: 0 read, -1 unread. */
  read: 0 | -1;
  createdAt: number;
}

/**
 * The message center: what areas post for an account, read and marked on its page. Kept in
 * MessageRecords (store.ts).
 */
export class MessageStore {
  constructor(private readonly records: MessageRecords) {}

  /** Any area posts a message for an account through here. */
  async post(
    userId: string,
    type: MessageType,
    params: Record<string, string | number> = {},
    imei: string | null = null,
  ): Promise<PlatformMessage> {
    const m = this.make(userId, type, params, imei);
    await this.records.save(m);
    return m;
  }

  private make(
    userId: string,
    type: MessageType,
    params: Record<string, string | number>,
    imei: string | null,
  ): PlatformMessage {
    return { id: crypto.randomUUID(), userId, type, imei, params, read: -1, createdAt: Date.now() };
  }

  /**
   * Posts unless a message with the same `once` key was posted before (kept a year): daily
   * checks and retried events never post a reminder twice. Returns null when it had been.
   */
  async postOnce(
    once: (string | number)[],
    userId: string,
    type: MessageType,
    params: Record<string, string | number>,
    imei: string | null = null,
  ): Promise<PlatformMessage | null> {
    const m = this.make(userId, type, params, imei);
    return await this.records.saveOnce(once, m) ? m : null;
  }

  async prefs(userId: string): Promise<MessagePrefs> {
    return { ...DEFAULT_PREFS, ...await this.records.prefs(userId) };
  }

  /** Saves the fields given, keeping the others (the two pages each set some of them). */
  async savePrefs(userId: string, prefs: Partial<MessagePrefs>): Promise<void> {
    await this.records.savePrefs(userId, { ...await this.prefs(userId), ...prefs });
  }

  /** Accounts that set balance thresholds (the reminder check looks at them too). */
  async *withThresholds(): AsyncGenerator<string> {
    for await (const [userId, p] of this.records.allPrefs()) {
      if (p.balanceThresholds) yield userId;
    }
  }

  async list(
    userId: string,
    q: { type?: MessageType; read: "all" | 0 | -1; pageNum: number; pageSize: number },
  ): Promise<{ total: number; unread: number; list: PlatformMessage[] }> {
    const all: PlatformMessage[] = [];
    let unread = 0;
    for await (const m of this.records.list(userId)) {
      if (m.read === -1) unread++;
      if (q.type && m.type !== q.type) continue;
      if (q.read !== "all" && m.read !== q.read) continue;
      all.push(m);
    }
    const start = (q.pageNum - 1) * q.pageSize;
    return { total: all.length, unread, list: all.slice(start, start + q.pageSize) };
  }

  /** Marks some (ids) or all messages of an account read or unread; returns how many changed. */
  async mark(userId: string, read: 0 | -1, ids?: string[]): Promise<number> {
    const wanted = ids && new Set(ids);
    let n = 0;
    for await (const m of this.records.list(userId, false)) {
      if ((wanted && !wanted.has(m.id)) || m.read === read) continue;
      await this.records.save({ ...m, read });
      n++;
    }
    return n;
  }
}
