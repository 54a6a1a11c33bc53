/**
 * Report methods over the motion analysis (modules/motion): parking (stops, ignition off or
 * unknown) and trips of one device, 31 days per call, any age the analysis holds.
 */
import { z } from "zod";
import { type OpenMethod } from "../types.ts";
import {
  checkRange,
  formatOpenTime,
  imeiParam,
  mapType,
  onMap,
  openTime,
  ownDevices,
  round,
} from "./common.ts";
import type { OpenMethodDeps } from "./deps.ts";

export const REPORT_MAX_DAYS = 31;
type Deps = Pick<OpenMethodDeps, "devices" | "motion">;

const params = z.object({
  imei: imeiParam,
  begin_time: openTime,
  end_time: openTime,
  map_type: mapType,
}).strict();

export function reportMethods(d: Deps): OpenMethod[] {
  const parking: OpenMethod<typeof params> = {
    name: "jimi.device.report.parking",
    need: "viewReports",
    params,
    run: async ({ session, params: p }) => {
      checkRange(p.begin_time, p.end_time, REPORT_MAX_DAYS);
      await ownDevices(d.devices, session, [p.imei]);
      const stops = await d.motion.segments("parking", p.imei, p.begin_time, p.end_time);
      return {
        data: stops.map((s) => {
          const [lng, lat] = onMap(p.map_type, s.lng, s.lat);
          return {
            imei: p.imei,
            startTime: formatOpenTime(s.start),
            endTime: "open" in s ? "" : formatOpenTime(s.end),
            durSecond: Math.round((s.end - s.start) / 1000),
            lat: round(lat, 6),
            lng: round(lng, 6),
            accStatus: s.acc === null ? null : 0,
          };
        }),
      };
    },
  };
  const trips: OpenMethod<typeof params> = {
    name: "jimi.report.trips",
    need: "viewReports",
    params,
    run: async ({ session, params: p }) => {
      checkRange(p.begin_time, p.end_time, REPORT_MAX_DAYS);
      await ownDevices(d.devices, session, [p.imei]);
      const list = await d.motion.segments("trip", p.imei, p.begin_time, p.end_time);
      return {
        result: list.map((t) => {
          const [sLng, sLat] = onMap(p.map_type, t.startLng, t.startLat);
          const [eLng, eLat] = onMap(p.map_type, t.endLng, t.endLat);
          return {
            imei: p.imei,
            startTime: formatOpenTime(t.start),
            endTime: "open" in t ? "" : formatOpenTime(t.end),
            runTimeSecond: Math.round((t.end - t.start) / 1000),
            distance: round(t.distance, 3),
            avgSpeed: round(t.avgSpeed, 1),
            maxSpeed: round(t.maxSpeed, 1),
            startLat: round(sLat, 6),
            startLng: round(sLng, 6),
            endLat: round(eLat, 6),
            endLng: round(eLng, 6),
            fuelUsed: t.fuelUsed,
            harshAcceleration: t.harshAcceleration,
            harshBraking: t.harshBraking,
          };
        }),
      };
    },
  };
  return [parking, trips];
}
