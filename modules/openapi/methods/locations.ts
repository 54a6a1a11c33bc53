/**
 * Location methods: the latest position of named devices (at most 100) or of every device of
 * an account, and a public live-location link. Read from the directory's live state (memory),
 * so 100 devices cost no store read.
 */
import { z } from "zod";
import type { Device, DeviceState } from "../../devices/model.ts";
import { deriveStatus } from "../../devices/model.ts";
import { ONLINE } from "../../devices/service.ts";
import { type OpenMethod } from "../types.ts";
import {
  formatIso,
  formatOpenTime,
  imeiList,
  imeiParam,
  intParam,
  type MapType,
  mapType,
  onMap,
  ownDevices,
  POS_TYPE_NAMES,
  round,
  targetAccount,
} from "./common.ts";
import type { OpenMethodDeps } from "./deps.ts";

type Deps = Pick<
  OpenMethodDeps,
  "access" | "accounts" | "directory" | "devices" | "shares" | "offlineMs"
>;

/** The public field set of a device location (jimi.device.location.get). */
export function locationFields(
  dev: Device,
  state: DeviceState | null,
  map: MapType,
  now: number,
  offlineMs: number,
) {
  const p = state?.position ?? null;
  const [lng, lat] = p ? onMap(map, p.lng, p.lat) : [null, null];
  const status = deriveStatus(state, now, offlineMs);
  return {
    imei: dev.imei,
    deviceName: dev.deviceName,
    icon: dev.applicationType ?? "car",
    status: ONLINE.has(status) ? "1" : "0",
    lat: lat === null ? null : round(lat, 6),
    lng: lng === null ? null : round(lng, 6),
    expireFlag: dev.expiration && dev.expiration < new Date(now).toISOString().slice(0, 10)
      ? "0"
      : "1",
    activationFlag: dev.activationTime ? "1" : "0",
    posType: p ? POS_TYPE_NAMES[p.posType] : "",
    gpsTime: formatOpenTime(state?.gpsTime),
    hbTime: formatOpenTime(state?.hbTime),
    speed: p ? String(Math.round(p.speed)) : "0",
    accStatus: state?.acc === null || state?.acc === undefined ? "" : state.acc ? "1" : "0",
    electQuantity: state?.battery === null || state?.battery === undefined
      ? ""
      : String(state.battery),
    powerValue: "",
    gpsNum: p ? String(p.satellites) : "0",
    gpsSignal: state?.signal === null || state?.signal === undefined ? "" : String(state.signal),
    direction: p ? String(Math.round(p.course)) : "0",
    currentMileage: p?.mileage === null || p?.mileage === undefined ? "" : String(p.mileage),
    activationTime: formatIso(dev.activationTime),
    expiration: formatIso(dev.expiration),
    deviceStatus: status,
  };
}

export function locationMethods(d: Deps): OpenMethod[] {
  const getParams = z.object({ imeis: imeiList(100), map_type: mapType }).strict();
  const get: OpenMethod<typeof getParams> = {
    name: "jimi.device.location.get",
    need: "read",
    params: getParams,
    run: async ({ session, params }) => {
      const devices = await ownDevices(d.devices, session, params.imeis);
      const now = Date.now();
      return {
        result: devices.map((dev) =>
          locationFields(
            dev,
            d.directory.state(dev.imei) ?? null,
            params.map_type,
            now,
            d.offlineMs,
          )
        ),
      };
    },
  };
  const listParams = z.object({ target: z.string().trim().max(50).optional(), map_type: mapType })
    .strict();
  const list: OpenMethod<typeof listParams> = {
    name: "jimi.user.device.location.list",
    need: "read",
    params: listParams,
    run: async ({ session, params }) => {
      const account = await targetAccount(d, session, params.target);
      const now = Date.now();
      return {
        result: d.directory.ownedBy(account.id).map((dev) =>
          locationFields(
            dev,
            d.directory.state(dev.imei) ?? null,
            params.map_type,
            now,
            d.offlineMs,
          )
        ),
      };
    },
  };
  const shareParams = z.object({ imei: imeiParam, expire_time: intParam(1, 720).optional() })
    .strict();
  const share: OpenMethod<typeof shareParams> = {
    name: "jimi.device.location.URL.share",
    // As the monitor's share link: it publishes the device's position.
    need: "editData",
    params: shareParams,
    run: async ({ session, params, origin }) => {
      await ownDevices(d.devices, session, [params.imei]);
      const link = await d.shares.create(session, params.imei, params.expire_time ?? 24);
      return {
        result: {
          // Absolute, as an integrator forwards it (relative only when called in process).
          url: `${origin ?? ""}/monitorShare?token=${encodeURIComponent(link.token)}`,
          expireTime: formatOpenTime(link.expiresAt),
        },
      };
    },
  };
  return [get, list, share];
}
