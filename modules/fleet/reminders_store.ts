import type { Reminder } from "./reminders_model.ts";

/**
 * Keys:
 *   ["fleetReminders", "r", id]                   Reminder
 *   ["fleetReminders", "byAccount", accountId, id] true
 */
const K = {
  r: (id: string) => ["fleetReminders", "r", id],
  byAccount: (accountId: string, id: string) => ["fleetReminders", "byAccount", accountId, id],
};

export class ReminderStore {
  constructor(private readonly kv: Deno.Kv) {}

  async all(): Promise<Reminder[]> {
    const out: Reminder[] = [];
    for await (const e of this.kv.list<Reminder>({ prefix: ["fleetReminders", "r"] })) {
      out.push(e.value);
    }
    return out;
  }

  async get(id: string): Promise<Reminder | null> {
    return (await this.kv.get<Reminder>(K.r(id))).value;
  }

  async ofAccount(accountId: string): Promise<Reminder[]> {
    const ids: string[] = [];
    for await (const e of this.kv.list({ prefix: ["fleetReminders", "byAccount", accountId] })) {
      ids.push(String(e.key[3]));
    }
    const out: Reminder[] = [];
    for (let i = 0; i < ids.length; i += 10) {
      const got = await this.kv.getMany<Reminder[]>(ids.slice(i, i + 10).map(K.r));
      for (const g of got) if (g.value) out.push(g.value);
    }
    return out;
  }

  async save(r: Reminder): Promise<void> {
    await this.kv.atomic().set(K.r(r.id), r).set(K.byAccount(r.accountId, r.id), true).commit();
  }

  /**
   * Marks the period as notified unless it already was (a second job run, or two processes):
   * true when this call claimed it and should send the notice.
   */
  async claimNotice(id: string, period: string): Promise<boolean> {
    const cur = await this.kv.get<Reminder>(K.r(id));
    if (!cur.value || cur.value.notifiedPeriod === period) return false;
    const res = await this.kv.atomic().check(cur)
      .set(K.r(id), { ...cur.value, notifiedPeriod: period }).commit();
    return res.ok;
  }

  async remove(r: Reminder): Promise<void> {
    await this.kv.atomic().delete(K.r(r.id)).delete(K.byAccount(r.accountId, r.id)).commit();
  }
}
