import type { BroadcastRule } from "./broadcast.ts";
import type { AccountAlertSettings, DeviceAlertSettings } from "./schemas.ts";

/**
 * Saved alert settings (settings.ts serves them from memory).
 * Keys: ["alertSettings", "account", userId] AccountAlertSettings,
 *       ["alertSettings", "device", imei] DeviceAlertSettings.
 */
export class AlertSettingsRecords {
  constructor(private readonly kv: Deno.Kv) {}

  async *accounts(): AsyncGenerator<[string, AccountAlertSettings]> {
    const iter = this.kv.list<AccountAlertSettings>({ prefix: ["alertSettings", "account"] });
    for await (const e of iter) yield [String(e.key[2]), e.value];
  }

  async *devices(): AsyncGenerator<[string, DeviceAlertSettings]> {
    const iter = this.kv.list<DeviceAlertSettings>({ prefix: ["alertSettings", "device"] });
    for await (const e of iter) yield [String(e.key[2]), e.value];
  }

  async account(userId: string): Promise<AccountAlertSettings | null> {
    return (await this.kv.get<AccountAlertSettings>(["alertSettings", "account", userId])).value;
  }

  async device(imei: string): Promise<DeviceAlertSettings | null> {
    return (await this.kv.get<DeviceAlertSettings>(["alertSettings", "device", imei])).value;
  }

  async saveAccount(userId: string, s: AccountAlertSettings): Promise<void> {
    await this.kv.set(["alertSettings", "account", userId], s);
  }

  async saveDevice(s: DeviceAlertSettings): Promise<void> {
    await this.kv.set(["alertSettings", "device", s.imei], s);
  }
}

/** Auto broadcast rules (broadcast.ts caches them). Keys: ["alertBroadcast", userId, id]. */
export class BroadcastRecords {
  constructor(private readonly kv: Deno.Kv) {}

  async *all(): AsyncGenerator<BroadcastRule> {
    for await (const e of this.kv.list<BroadcastRule>({ prefix: ["alertBroadcast"] })) {
      yield e.value;
    }
  }

  async ofUser(userId: string): Promise<BroadcastRule[]> {
    const out: BroadcastRule[] = [];
    for await (const e of this.kv.list<BroadcastRule>({ prefix: ["alertBroadcast", userId] })) {
      out.push(e.value);
    }
    return out;
  }

  async save(r: BroadcastRule): Promise<void> {
    await this.kv.set(["alertBroadcast", r.userId, r.id], r);
  }

  async remove(r: Pick<BroadcastRule, "userId" | "id">): Promise<void> {
    await this.kv.delete(["alertBroadcast", r.userId, r.id]);
  }
}
