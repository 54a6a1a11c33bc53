/**
 * jimi.device.alarm.list: a device's alarms over any range we hold, newest first, paged
 * (Tracksolid caps a call at one month and 1,000 rows; here a range has no cap and a client
 * pages through it).
 */
import { z } from "zod";
import alertNames from "../../../locales/en/alerts.json" with { type: "json" };
import { ALERT_TYPES } from "../../alerts/types.ts";
import { type OpenMethod } from "../types.ts";
import {
  checkRange,
  formatOpenTime,
  imeiParam,
  intParam,
  mapType,
  onMap,
  openTime,
  ownDevices,
  round,
} from "./common.ts";
import type { OpenMethodDeps } from "./deps.ts";

export const ALARM_PAGE_MAX = 1000;
const TYPE_NAMES: Record<string, string> = alertNames.type;

type Deps = Pick<OpenMethodDeps, "devices" | "alerts">;

const params = z.object({
  imei: imeiParam,
  begin_time: openTime,
  end_time: openTime,
  alert_type_id: z.enum(ALERT_TYPES as [string, ...string[]]).optional(),
  page_no: intParam(1, 1_000_000).optional(),
  page_size: intParam(1, ALARM_PAGE_MAX).optional(),
  map_type: mapType,
}).strict();

export function alarmMethods(d: Deps): OpenMethod[] {
  const list: OpenMethod<typeof params> = {
    name: "jimi.device.alarm.list",
    need: "read",
    params,
    run: async ({ session, params: p }) => {
      checkRange(p.begin_time, p.end_time, Infinity);
      const [dev] = await ownDevices(d.devices, session, [p.imei]);
      const all = (await d.alerts.range(p.imei, p.begin_time, p.end_time))
        .filter((a) => !p.alert_type_id || a.type === p.alert_type_id)
        .reverse();
      const pageNo = p.page_no ?? 1, pageSize = p.page_size ?? 100;
      const page = all.slice((pageNo - 1) * pageSize, pageNo * pageSize);
      return {
        result: page.map((a) => {
          const at = a.lat !== null && a.lng !== null ? onMap(p.map_type, a.lng, a.lat) : null;
          return {
            imei: a.imei,
            deviceName: dev.deviceName,
            alertTypeId: a.type,
            alarmTypeName: TYPE_NAMES[a.type] ?? a.type,
            alarmTime: formatOpenTime(a.time),
            lat: at ? round(at[1], 6) : null,
            lng: at ? round(at[0], 6) : null,
            speed: a.speed,
            address: a.address ?? "",
            fenceName: a.fenceName ?? "",
          };
        }),
        data: { total: all.length, pageNo, pageSize },
      };
    },
  };
  return [list];
}
