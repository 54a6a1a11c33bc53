import type { AlertHistory, AlertRecord, AlertRecordWriter } from "./types.ts";

export type { AlertRecord };

/**
 * Keys: by device and time (device history), by account and time (the account's own alerts;
 * the alerts issue adds subtree queries).
 */
export const ALERT_KEYS = {
  byDevice: (imei: string, time: number, id: string) => ["alerts", "device", imei, time, id],
  byDevicePrefix: (imei: string) => ["alerts", "device", imei],
  byUser: (userId: string, time: number, id: string) => ["alerts", "user", userId, time, id],
};

export class AlertStore implements AlertRecordWriter, AlertHistory {
  constructor(private readonly kv: Deno.Kv) {}

  /** Adds the writes of one alert to a gateway commit. */
  addTo(op: Deno.AtomicOperation, a: AlertRecord): void {
    op.set(ALERT_KEYS.byDevice(a.imei, a.time, a.id), a);
    op.set(ALERT_KEYS.byUser(a.userId, a.time, a.id), a.imei);
  }

  /** Stores engine alerts (the gateway adds its own through addTo inside its commit). */
  async add(records: AlertRecord[]): Promise<void> {
    // Two keys per record; stay well below the 1000-mutation commit limit.
    for (let i = 0; i < records.length; i += 400) {
      const op = this.kv.atomic();
      for (const r of records.slice(i, i + 400)) this.addTo(op, r);
      const res = await op.commit();
      if (!res.ok) throw new Error("alert commit failed");
    }
  }

  async get(imei: string, time: number, id: string): Promise<AlertRecord | null> {
    return (await this.kv.get<AlertRecord>(ALERT_KEYS.byDevice(imei, time, id))).value;
  }

  /** Rewrites a record in place (read flag, processing, push flag). */
  async update(a: AlertRecord): Promise<void> {
    await this.kv.set(ALERT_KEYS.byDevice(a.imei, a.time, a.id), a);
  }

  /**
   * Sets a stored alert's address (filled in after it was raised), keeping whatever else
   * changed meanwhile (read flag, processing); false when the alert is gone.
   */
  async setAddress(ref: { imei: string; time: number; id: string }, address: string) {
    const key = ALERT_KEYS.byDevice(ref.imei, ref.time, ref.id);
    for (let attempt = 0; attempt < 5; attempt++) {
      const cur = await this.kv.get<AlertRecord>(key);
      if (!cur.value) return false;
      if (cur.value.address === address) return true;
      const res = await this.kv.atomic().check(cur).set(key, { ...cur.value, address }).commit();
      if (res.ok) return true;
    }
    return false;
  }

  /** Rewrites several records in one commit (at most 500). */
  async updateMany(list: AlertRecord[]): Promise<void> {
    const op = this.kv.atomic();
    for (const a of list) op.set(ALERT_KEYS.byDevice(a.imei, a.time, a.id), a);
    const res = await op.commit();
    if (!res.ok) throw new Error("alert update failed");
  }

  /**
   * Alerts of some accounts (or of some devices), newest first, within [from, to]; `accept`
   * filters. Scans at most `scanLimit` entries so one query stays bounded.
   */
  async query(
    source: { userIds: string[] } | { imeis: string[] },
    from: number,
    to: number,
    accept: (a: AlertRecord) => boolean,
    scanLimit = 20_000,
  ): Promise<AlertRecord[]> {
    const out: AlertRecord[] = [];
    let scanned = 0;
    if ("imeis" in source) {
      for (const imei of source.imeis) {
        const iter = this.kv.list<AlertRecord>({
          start: ALERT_KEYS.byDevice(imei, from, ""),
          end: ALERT_KEYS.byDevice(imei, to + 1, ""),
        }, { reverse: true, limit: scanLimit });
        for await (const e of iter) {
          if (++scanned > scanLimit) break;
          if (accept(e.value)) out.push(e.value);
        }
      }
    } else {
      for (const userId of source.userIds) {
        const refs: Deno.KvKey[] = [];
        const iter = this.kv.list<string>({
          start: ALERT_KEYS.byUser(userId, from, ""),
          end: ALERT_KEYS.byUser(userId, to + 1, ""),
        }, { reverse: true, limit: scanLimit });
        for await (const e of iter) {
          if (++scanned > scanLimit) break;
          const [, , , time, id] = e.key as [string, string, string, number, string];
          refs.push(ALERT_KEYS.byDevice(e.value, time, id));
        }
        for (let i = 0; i < refs.length; i += 10) {
          for (const g of await this.kv.getMany<AlertRecord[]>(refs.slice(i, i + 10))) {
            if (g.value && accept(g.value)) out.push(g.value);
          }
        }
      }
    }
    return out.sort((a, b) => b.time - a.time || b.id.localeCompare(a.id));
  }

  /** One device's alerts with from ≤ time ≤ to, oldest first (the reports count them all). */
  async range(imei: string, from: number, to: number): Promise<AlertRecord[]> {
    const out: AlertRecord[] = [];
    const iter = this.kv.list<AlertRecord>({
      start: ALERT_KEYS.byDevice(imei, from, ""),
      end: ALERT_KEYS.byDevice(imei, to + 1, ""),
    }, { batchSize: 500 });
    for await (const e of iter) out.push(e.value);
    return out;
  }

  async forDevice(imei: string, limit = 100): Promise<AlertRecord[]> {
    const out: AlertRecord[] = [];
    for await (
      const e of this.kv.list<AlertRecord>({ prefix: ALERT_KEYS.byDevicePrefix(imei) }, {
        reverse: true,
        limit,
      })
    ) {
      out.push(e.value);
    }
    return out;
  }
}
