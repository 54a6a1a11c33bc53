import { z } from "zod";
import type { Device } from "../devices/model.ts";
import { alertType } from "./schemas.ts";
import type { AlertRecord } from "./store.ts";
import type { BroadcastRecords } from "./settings_store.ts";

const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "validation.timeForm");
const minutes = (t: string) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3));

/** Spec §3 auto broadcast rule: name, alarm type, count per time unit, time and speed limits, devices. */
export const broadcastBody = z.object({
  id: z.string().max(64).optional(),
  name: z.string().trim().min(1).max(20),
  alarmType: alertType,
  /** Broadcast once the alarm happened this many times within `unitMinutes`. */
  count: z.number().int().min(1).max(100),
  unitMinutes: z.number().int().min(1).max(1440),
  /** Active hours of the device's local day (start before end). */
  startTime: hhmm.default("00:00"),
  endTime: hhmm.default("23:59"),
  minSpeed: z.number().min(0).max(300).nullable().default(null),
  maxSpeed: z.number().min(0).max(300).nullable().default(null),
  /** Text the device speaks or shows (sent as a command). */
  content: z.string().trim().min(1).max(100),
  imeis: z.array(z.string().regex(/^\d{15}$/, "validation.imeiForm")).max(200).default([]),
  enabled: z.boolean().default(true),
}).strict().refine((r) => minutes(r.endTime) > minutes(r.startTime), {
  message: "validation.nightRange",
  path: ["endTime"],
}).refine((r) => r.minSpeed === null || r.maxSpeed === null || r.maxSpeed >= r.minSpeed, {
  message: "validation.maxAboveMin",
  path: ["maxSpeed"],
});
export type BroadcastRule = z.infer<typeof broadcastBody> & { id: string; userId: string };

/** Per account, at most this many rules (not shown in the spec). */
export const MAX_RULES = 20;

/**
 * Auto broadcast: counts alerts per rule and device and, when a rule's count is reached
 * within its time unit (inside its hours and speed limits), sends the rule's text to the
 * device, then starts counting again.
 * Rules are kept in BroadcastRecords (settings_store.ts) and cached in memory.
 */
export class AutoBroadcast {
  private rules = new Map<string, BroadcastRule[]>();
  /** "ruleId|imei" → alert times inside the current unit. */
  private hits = new Map<string, number[]>();
  /** Told the accounts whose rules were written here (cluster mode's sync). */
  onChanged: (userIds: string[]) => void = () => {};

  constructor(
    private readonly records: BroadcastRecords,
    private readonly send: (device: Device, rule: BroadcastRule) => void,
    private readonly device: (imei: string) => Device | undefined,
  ) {}

  async load(): Promise<void> {
    for await (const r of this.records.all()) this.cache(r);
  }

  private cache(r: BroadcastRule): void {
    const list = (this.rules.get(r.userId) ?? []).filter((x) => x.id !== r.id);
    this.rules.set(r.userId, [...list, r]);
  }

  list(userId: string): BroadcastRule[] {
    return [...(this.rules.get(userId) ?? [])].sort((a, b) => a.name.localeCompare(b.name));
  }

  /** Saves a rule; false when the account already has MAX_RULES. */
  async save(r: BroadcastRule): Promise<boolean> {
    const existing = this.rules.get(r.userId) ?? [];
    if (!existing.some((x) => x.id === r.id) && existing.length >= MAX_RULES) return false;
    await this.records.save(r);
    this.cache(r);
    this.onChanged([r.userId]);
    return true;
  }

  /** Re-reads the rules of accounts another instance wrote. */
  async reload(userIds: string[]): Promise<void> {
    for (const userId of userIds) this.rules.set(userId, await this.records.ofUser(userId));
  }

  get(userId: string, id: string): BroadcastRule | undefined {
    return this.rules.get(userId)?.find((r) => r.id === id);
  }

  async remove(r: BroadcastRule): Promise<void> {
    await this.records.remove(r);
    this.rules.set(r.userId, (this.rules.get(r.userId) ?? []).filter((x) => x.id !== r.id));
    this.onChanged([r.userId]);
  }

  /** Called for every stored alert. */
  onAlert(a: AlertRecord): void {
    const rules = this.rules.get(a.userId);
    if (!rules) return;
    const device = this.device(a.imei);
    if (!device) return;
    const local = a.time + (device.timezoneOffsetMinutes ?? 0) * 60_000;
    const minute = Math.floor((((local % 86_400_000) + 86_400_000) % 86_400_000) / 60_000);
    for (const r of rules) {
      if (!r.enabled || r.alarmType !== a.type) continue;
      if (r.imeis.length && !r.imeis.includes(a.imei)) continue;
      if (minute < minutes(r.startTime) || minute > minutes(r.endTime)) continue;
      const speed = a.speed ?? 0;
      if (
        (r.minSpeed !== null && speed < r.minSpeed) || (r.maxSpeed !== null && speed > r.maxSpeed)
      ) {
        continue;
      }
      const key = `${r.id}|${a.imei}`;
      const times = (this.hits.get(key) ?? []).filter((t) => a.time - t < r.unitMinutes * 60_000);
      times.push(a.time);
      if (times.length >= r.count) {
        this.hits.delete(key);
        this.send(device, r);
      } else this.hits.set(key, times);
    }
  }
}
