/**
 * When each account's info was last exported: ["accountInfo", "exported", accountId] → epoch
 * ms, expiring with the interval.
 */
export class AccountInfoStore {
  constructor(private readonly kv: Deno.Kv) {}

  /**
   * Takes the account's export slot: false when it was taken less than `intervalMs` ago.
   * One commit checked against the previous value, so two parallel exports get one slot.
   */
  async claim(accountId: string, now: number, intervalMs: number): Promise<boolean> {
    const key = ["accountInfo", "exported", accountId];
    const last = await this.kv.get<number>(key);
    if (last.value !== null && now - last.value < intervalMs) return false;
    const r = await this.kv.atomic().check(last).set(key, now, { expireIn: intervalMs }).commit();
    return r.ok;
  }
}
