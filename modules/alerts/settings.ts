import {
  type AccountAlertSettings,
  DEFAULT_ACCOUNT_SETTINGS,
  type DeviceAlertSettings,
} from "./schemas.ts";

/**
 * Keys: ["alertSettings", "account", userId] AccountAlertSettings,
 *       ["alertSettings", "device", imei] DeviceAlertSettings.
 * Everything is cached in memory: the engine reads settings for every position.
 */
export class AlertSettingsStore {
  private accounts = new Map<string, AccountAlertSettings>();
  private devices = new Map<string, DeviceAlertSettings>();

  constructor(private readonly kv: Deno.Kv) {}

  async load(): Promise<void> {
    for await (
      const e of this.kv.list<AccountAlertSettings>({ prefix: ["alertSettings", "account"] })
    ) {
      this.accounts.set(String(e.key[2]), e.value);
    }
    for await (
      const e of this.kv.list<DeviceAlertSettings>({ prefix: ["alertSettings", "device"] })
    ) {
      this.devices.set(String(e.key[2]), e.value);
    }
  }

  account(userId: string): AccountAlertSettings {
    return this.accounts.get(userId) ?? DEFAULT_ACCOUNT_SETTINGS;
  }

  device(imei: string): DeviceAlertSettings | undefined {
    return this.devices.get(imei);
  }

  async saveAccount(userId: string, s: AccountAlertSettings): Promise<void> {
    await this.kv.set(["alertSettings", "account", userId], s);
    this.accounts.set(userId, s);
  }

  async saveDevice(s: DeviceAlertSettings): Promise<void> {
    await this.kv.set(["alertSettings", "device", s.imei], s);
    this.devices.set(s.imei, s);
  }
}
