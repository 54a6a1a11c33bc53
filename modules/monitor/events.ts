import { ALERT_KEYS, type AlertRecord } from "../alerts/store.ts";
import type { DeviceDirectory } from "../devices/directory.ts";

export type MonitorAlert = AlertRecord & { deviceName: string };

/**
 * The latest alerts of a set of accounts, newest first. Reads the alert index by account
 * (written by the gateway through AlertStore) and then the records; read-only, so the alerts
 * area stays the owner of those keys.
 */
export async function latestAlerts(
  kv: Deno.Kv,
  directory: DeviceDirectory,
  owners: Iterable<string>,
  opts: { limit: number; unreadOnly?: boolean },
): Promise<MonitorAlert[]> {
  const refs: { time: number; key: Deno.KvKey }[] = [];
  for (const owner of owners) {
    const prefix = ALERT_KEYS.byUser(owner, 0, "").slice(0, 3);
    for await (const e of kv.list<string>({ prefix }, { reverse: true, limit: opts.limit })) {
      const [, , , time, id] = e.key as [string, string, string, number, string];
      refs.push({ time, key: ALERT_KEYS.byDevice(e.value, time, id) });
    }
  }
  refs.sort((a, b) => b.time - a.time);
  const out: MonitorAlert[] = [];
  // getMany takes at most 10 keys.
  for (let i = 0; i < refs.length && out.length < opts.limit; i += 10) {
    const got = await kv.getMany<AlertRecord[]>(refs.slice(i, i + 10).map((r) => r.key));
    for (const e of got) {
      if (!e.value || (opts.unreadOnly && e.value.read !== -1)) continue;
      out.push({ ...e.value, deviceName: directory.get(e.value.imei)?.deviceName ?? e.value.imei });
      if (out.length >= opts.limit) break;
    }
  }
  return out;
}
