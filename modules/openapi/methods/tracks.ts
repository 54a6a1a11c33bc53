/**
 * Track methods: one device's points (31 days per call, any age the store holds, in time
 * order) and the distance driven, trip by trip, of up to 100 devices.
 */
import { z } from "zod";
import { type OpenMethod, RawJson } from "../types.ts";
import {
  checkRange,
  formatOpenTime,
  imeiList,
  imeiParam,
  mapType,
  openTime,
  ownDevices,
  round,
} from "./common.ts";
import { trackFormat } from "./track_json.ts";
import type { OpenMethodDeps } from "./deps.ts";

/** Tracksolid allows 7 days per track.list call; we allow a month (issue 22). */
export const TRACK_MAX_DAYS = 31;

type Deps = Pick<OpenMethodDeps, "devices" | "tracks" | "motion">;

/** The track forms by map type, made once (their id keys the store's block cache). */
const FORMATS = {
  WGS84: trackFormat(undefined),
  GOOGLE: trackFormat("GOOGLE"),
  BAIDU: trackFormat("BAIDU"),
};

const rangeParams = {
  begin_time: openTime,
  end_time: openTime,
};

export function trackMethods(d: Deps): OpenMethod[] {
  const listParams = z.object({ imei: imeiParam, ...rangeParams, map_type: mapType }).strict();
  const list: OpenMethod<typeof listParams> = {
    name: "jimi.device.track.list",
    need: "read",
    params: listParams,
    run: async ({ session, params: p }) => {
      checkRange(p.begin_time, p.end_time, TRACK_MAX_DAYS);
      await ownDevices(d.devices, session, [p.imei]);
      // Located fixes only (a heartbeat without a fix is not a track point), written by the
      // store's cached block fragments: a week's 60,480 points are ~9 MB of JSON.
      const format = FORMATS[p.map_type ?? "WGS84"];
      const parts = await d.tracks.rangeParts(p.imei, p.begin_time, p.end_time, format);
      return { result: new RawJson([...parts]) };
    },
  };
  const mileageParams = z.object({ imeis: imeiList(100), ...rangeParams }).strict();
  const mileage: OpenMethod<typeof mileageParams> = {
    name: "jimi.device.track.mileage",
    need: "read",
    params: mileageParams,
    run: async ({ session, params: p }) => {
      checkRange(p.begin_time, p.end_time, TRACK_MAX_DAYS);
      await ownDevices(d.devices, session, p.imeis);
      const data = [];
      for (const imei of p.imeis) {
        for (const t of await d.motion.segments("trip", imei, p.begin_time, p.end_time)) {
          data.push({
            imei,
            startTime: formatOpenTime(t.start),
            endTime: formatOpenTime(t.end),
            distance: round(t.distance, 3),
            runTimeSecond: Math.round((t.end - t.start) / 1000),
            startLat: round(t.startLat, 6),
            startLng: round(t.startLng, 6),
            endLat: round(t.endLat, 6),
            endLng: round(t.endLng, 6),
            avgSpeed: round(t.avgSpeed, 1),
            maxSpeed: round(t.maxSpeed, 1),
          });
        }
      }
      return { data };
    },
  };
  return [list, mileage];
}
