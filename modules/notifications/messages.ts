/**
 * Message center (spec §3 message types): 1 device expired, 2 offline, 4 account move,
 * 5 device allocation, 6 balance reminder, 7 licence soon expires, 8 insurance soon expires,
 * 9 card expires, 10 card consumption, 11 device broadcasting fewer than 50 times.
 */
export const MESSAGE_TYPES = [1, 2, 4, 5, 6, 7, 8, 9, 10, 11] as const;
export type MessageType = typeof MESSAGE_TYPES[number];

/** Spec §9: balance reminders at 10:00 daily, on Mondays weekly, or on the 1st monthly. */
export const BALANCE_REMINDERS = ["off", "daily", "weekly", "monthly"] as const;
export type BalanceReminder = typeof BALANCE_REMINDERS[number];
export interface MessagePrefs {
  balanceReminder: BalanceReminder;
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

const MESSAGE_TTL_MS = 180 * 86_400_000;
const ONCE_TTL_MS = 400 * 86_400_000;

/**
 * Keys: ["messages", userId, createdAt, id] PlatformMessage (kept 180 days);
 * ["messageOnce", ...key] id of the message a once-only reminder posted (kept 400 days);
 * ["messagePrefs", userId] MessagePrefs.
 */
export class MessageStore {
  constructor(private readonly kv: Deno.Kv) {}

  /** Any area posts a message for an account through here. */
  async post(
    userId: string,
    type: MessageType,
    params: Record<string, string | number> = {},
    imei: string | null = null,
  ): Promise<PlatformMessage> {
    const m = this.make(userId, type, params, imei);
    await this.kv.set(["messages", userId, m.createdAt, m.id], m, { expireIn: MESSAGE_TTL_MS });
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
   * Key: ["messageOnce", ...once].
   */
  async postOnce(
    once: Deno.KvKeyPart[],
    userId: string,
    type: MessageType,
    params: Record<string, string | number>,
    imei: string | null = null,
  ): Promise<PlatformMessage | null> {
    const m = this.make(userId, type, params, imei);
    const key = ["messageOnce", ...once];
    const r = await this.kv.atomic()
      .check({ key, versionstamp: null })
      .set(key, m.id, { expireIn: ONCE_TTL_MS })
      .set(["messages", userId, m.createdAt, m.id], m, { expireIn: MESSAGE_TTL_MS })
      .commit();
    return r.ok ? m : null;
  }

  async prefs(userId: string): Promise<MessagePrefs> {
    const e = await this.kv.get<MessagePrefs>(["messagePrefs", userId]);
    return { ...DEFAULT_PREFS, ...e.value };
  }

  async savePrefs(userId: string, prefs: MessagePrefs): Promise<void> {
    await this.kv.set(["messagePrefs", userId], prefs);
  }

  async list(
    userId: string,
    q: { type?: MessageType; read: "all" | 0 | -1; pageNum: number; pageSize: number },
  ): Promise<{ total: number; unread: number; list: PlatformMessage[] }> {
    const all: PlatformMessage[] = [];
    let unread = 0;
    for await (
      const e of this.kv.list<PlatformMessage>({ prefix: ["messages", userId] }, { reverse: true })
    ) {
      if (e.value.read === -1) unread++;
      if (q.type && e.value.type !== q.type) continue;
      if (q.read !== "all" && e.value.read !== q.read) continue;
      all.push(e.value);
    }
    const start = (q.pageNum - 1) * q.pageSize;
    return { total: all.length, unread, list: all.slice(start, start + q.pageSize) };
  }

  /** Marks some (ids) or all messages of an account read or unread; returns how many changed. */
  async mark(userId: string, read: 0 | -1, ids?: string[]): Promise<number> {
    const wanted = ids && new Set(ids);
    let n = 0;
    for await (const e of this.kv.list<PlatformMessage>({ prefix: ["messages", userId] })) {
      if ((wanted && !wanted.has(e.value.id)) || e.value.read === read) continue;
      await this.kv.set(e.key, { ...e.value, read }, { expireIn: MESSAGE_TTL_MS });
      n++;
    }
    return n;
  }
}
