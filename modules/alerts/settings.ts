import type { DeviceDetail } from "../devices/detail.ts";
import type { AlertSettingsRecords } from "./settings_store.ts";
import {
  type AccountAlertSettings,
  DEFAULT_ACCOUNT_SETTINGS,
  type DeviceAlertSettings,
} from "./schemas.ts";

/** How long a device's alarm data (device detail, spec §3) is trusted before it is re-read. */
const DETAIL_TTL_MS = 60_000;

/** The thresholds of a device's own "alarm data" (edited with the device), as engine settings. */
function fromDetail(imei: string, d: DeviceDetail | null): DeviceAlertSettings | null {
  const a = d?.alerts;
  if (!a) return null;
  const s: DeviceAlertSettings = {
    imei,
    overSpeed: a.overSpeed,
    overSecond: a.overSecond,
    minTemperature: a.minTemperature,
    maxTemperature: a.maxTemperature,
    offlineMinutes: null,
    stayMinutes: null,
    mileageThreshold: null,
    // The device's "mileage threshold" is its maintenance reminder, counted from "mileage".
    maintenanceThreshold: a.mileageThreshold,
    currentMileage: a.mileage,
    accOnHours: a.aCCOnDurtionThreshold,
    currentAccOnHours: a.initialValue,
    licenceExpiry: null,
    insuranceExpiry: null,
    simCardExpiry: null,
    nightRanges: [],
  };
  return Object.entries(s).some(([k, v]) => k !== "imei" && k !== "nightRanges" && v !== null)
    ? s
    : null;
}

/**
 * Alert settings. Account push settings and the alert-specific device thresholds live here
 * (kept in AlertSettingsRecords, settings_store.ts); the
 * thresholds that belong to the device record (speed, temperature, maintenance, ACC-on) are
 * read from the device detail and merged, the alert settings winning field by field.
 * Everything the engine needs is served from memory: it asks for every position.
 */
export class AlertSettingsStore {
  private accounts = new Map<string, AccountAlertSettings>();
  private devices = new Map<string, DeviceAlertSettings>();
  private details = new Map<string, { at: number; value: DeviceAlertSettings | null }>();
  private merged = new Map<string, DeviceAlertSettings | undefined>();
  /**
   * Told what was saved here, as `account:<userId>` / `device:<imei>` (cluster mode's sync
   * re-reads them on the other instances, `reload`).
   */
  onChanged: (ids: string[]) => void = () => {};

  constructor(
    private readonly records: AlertSettingsRecords,
    private readonly readDetail: (imei: string) => Promise<DeviceDetail | null> = () =>
      Promise.resolve(null),
  ) {}

  async load(): Promise<void> {
    for await (const [userId, s] of this.records.accounts()) this.accounts.set(userId, s);
    for await (const [imei, s] of this.records.devices()) this.devices.set(imei, s);
  }

  account(userId: string): AccountAlertSettings {
    return this.accounts.get(userId) ?? DEFAULT_ACCOUNT_SETTINGS;
  }

  /** Every device's saved alert settings (the daily reminder-date check walks them). */
  allOwn(): IterableIterator<DeviceAlertSettings> {
    return this.devices.values();
  }

  /** The alert settings saved for a device (what /settingAlert edits). */
  own(imei: string): DeviceAlertSettings | undefined {
    return this.devices.get(imei);
  }

  /**
   * The thresholds the engine applies: own settings over the device's alarm data. The same
   * object is returned while nothing changed (the engine restarts counters on a new one).
   * A stale device detail is re-read in the background.
   */
  device(imei: string, now = Date.now()): DeviceAlertSettings | undefined {
    const cached = this.details.get(imei);
    if (!cached || now - cached.at > DETAIL_TTL_MS) this.refreshDetail(imei, now);
    if (!this.merged.has(imei)) this.merged.set(imei, this.merge(imei));
    return this.merged.get(imei);
  }

  private refreshDetail(imei: string, now: number): void {
    const previous = this.details.get(imei);
    // Mark first so a burst of positions starts one read, not many.
    this.details.set(imei, { at: now, value: previous?.value ?? null });
    this.readDetail(imei).then((d) => {
      const value = fromDetail(imei, d);
      if (JSON.stringify(value) !== JSON.stringify(previous?.value ?? null)) {
        this.details.set(imei, { at: now, value });
        this.merged.delete(imei);
      }
    }).catch(() => {});
  }

  private merge(imei: string): DeviceAlertSettings | undefined {
    const own = this.devices.get(imei);
    const detail = this.details.get(imei)?.value ?? null;
    if (!detail) return own;
    if (!own) return detail;
    const out = { ...detail } as Record<string, unknown>;
    for (const [k, v] of Object.entries(own)) if (v !== null) out[k] = v;
    if (!own.nightRanges.length) out.nightRanges = detail.nightRanges;
    return out as DeviceAlertSettings;
  }

  async saveAccount(userId: string, s: AccountAlertSettings): Promise<void> {
    await this.records.saveAccount(userId, s);
    this.accounts.set(userId, s);
    this.onChanged([`account:${userId}`]);
  }

  async saveDevice(s: DeviceAlertSettings): Promise<void> {
    await this.records.saveDevice(s);
    this.devices.set(s.imei, s);
    this.merged.delete(s.imei);
    this.onChanged([`device:${s.imei}`]);
  }

  /** Re-reads settings another instance saved (ids as told to `onChanged`). */
  async reload(ids: string[]): Promise<void> {
    for (const id of ids) {
      const [kind, key] = [id.slice(0, id.indexOf(":")), id.slice(id.indexOf(":") + 1)];
      if (kind === "account") {
        const saved = await this.records.account(key);
        if (saved) this.accounts.set(key, saved);
        else this.accounts.delete(key);
      } else if (kind === "device") {
        const saved = await this.records.device(key);
        if (saved) this.devices.set(key, saved);
        else this.devices.delete(key);
        this.merged.delete(key);
      }
    }
  }
}
