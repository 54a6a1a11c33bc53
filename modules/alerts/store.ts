import type { AlarmType } from "../gateway/protocols/types.ts";

/** A device alarm recorded by the gateway; the alerts issue builds the alert centre on these. */
export interface AlertRecord {
  id: string;
  imei: string;
  userId: string;
  type: AlarmType;
  /** Epoch ms of the alarm. */
  time: number;
  lat: number | null;
  lng: number | null;
  speed: number | null;
  /** Spec read filter: 0 read, -1 unread. */
  read: 0 | -1;
  processed: boolean;
  createdAt: number;
}

/**
 * Keys: by device and time (device history), by account and time (the account's own alerts;
 * the alerts issue adds subtree queries).
 */
export const ALERT_KEYS = {
  byDevice: (imei: string, time: number, id: string) => ["alerts", "device", imei, time, id],
  byDevicePrefix: (imei: string) => ["alerts", "device", imei],
  byUser: (userId: string, time: number, id: string) => ["alerts", "user", userId, time, id],
};

export class AlertStore {
  constructor(private readonly kv: Deno.Kv) {}

  /** Adds the writes of one alert to a gateway commit. */
  addTo(op: Deno.AtomicOperation, a: AlertRecord): void {
    op.set(ALERT_KEYS.byDevice(a.imei, a.time, a.id), a);
    op.set(ALERT_KEYS.byUser(a.userId, a.time, a.id), a.imei);
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
