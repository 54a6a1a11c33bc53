import type { DeviceDirectory } from "../devices/directory.ts";
import { deriveStatus, type Device, type DeviceStatus, STATUS_FILTERS } from "../devices/model.ts";
import { APPLICATION_TYPES, findModel } from "../devices/models.ts";

/** Status codes in the compact payloads (index into this list). */
export const STATUSES: DeviceStatus[] = [
  "moving",
  "idling",
  "stopped",
  "offline",
  "sleeping",
  "poweredOff",
  "inactive",
];
export const STATUS_INDEX = new Map(STATUSES.map((s, i) => [s, i]));

const TYPE_INDEX = new Map<string, number>(APPLICATION_TYPES.map((s, i) => [s, i]));
const OTHER_TYPE = TYPE_INDEX.get("other")!;

/** The application type (map icon) of a device as an index in APPLICATION_TYPES. */
export function appTypeIndex(d: Pick<Device, "applicationType" | "mcType">): number {
  const type = d.applicationType ?? findModel(d.mcType)?.applicationType ?? "car";
  return TYPE_INDEX.get(type) ?? OTHER_TYPE;
}

/**
 * The list tabs: all, the spec's status filter 1-4, and 5 "not activated" (never heard from),
 * which is not counted as offline.
 */
export type CountKey = "all" | "moving" | "idling" | "stopped" | "offline" | "notActivated";

export function countKeyOf(status: DeviceStatus): Exclude<CountKey, "all"> {
  if (STATUS_FILTERS[5].includes(status)) return "notActivated";
  return STATUS_FILTERS[4].includes(status) ? "offline" : status as "moving" | "idling" | "stopped";
}

/**
 * Every visible device with its latest position, as parallel arrays: 10,000 devices cost
 * about 0.8 MB of JSON instead of 3 MB of objects, and the map builds its point buffers
 * straight from them. Coordinates stay WGS-84; the browser converts for its provider.
 */
export interface ObjectsPayload {
  now: number;
  statuses: DeviceStatus[];
  counts: Record<CountKey, number>;
  imei: string[];
  name: string[];
  mcType: string[];
  /** Application types (icons); `appType` holds indexes into it. */
  appTypes: readonly string[];
  appType: number[];
  status: number[];
  /** null where the device never sent a position. */
  lat: (number | null)[];
  lng: (number | null)[];
  speed: number[];
  course: number[];
  /** Epoch ms of the latest fix / latest message; null when none. */
  gpsTime: (number | null)[];
  hbTime: (number | null)[];
  acc: (boolean | null)[];
  /** Group name per device ("" = the owner's default group). */
  group: string[];
  /** Followed by the logged-in user (spec: followed devices first). */
  followed: boolean[];
  /** The card's further facts, when one device was asked for (the popup, tracking, share). */
  facts?: DeviceFacts;
}

/** What a device's card shows beyond the list: readings, odometer, since when, address. */
export interface DeviceFacts {
  /** Percent, as the device reports it; null when it never did. */
  battery: number | null;
  /** Signal level 0-4 (spec). */
  signal: number | null;
  /** Odometer in km (the device's mileage). */
  odometerKm: number | null;
  /** When the device last moved (epoch ms): "stopped for". */
  lastMovingAt: number | null;
  /** Where the device is (modules/geocoder), added by the route. */
  address: string | null;
  /** The driver, once the fleet area records one. */
  driver: string | null;
}

/** Extra per-device facts the caller knows: group names and the user's follow marks. */
export interface ObjectsExtras {
  groupName?: (userId: string, groupId: string) => string | undefined;
  followed?: Set<string>;
  /** Add `facts` (for a single device). */
  facts?: boolean;
}

export function collectObjects(
  directory: DeviceDirectory,
  devices: Iterable<Device>,
  offlineMs: number,
  extras: ObjectsExtras = {},
  now = Date.now(),
): ObjectsPayload {
  const out: ObjectsPayload = {
    now,
    statuses: STATUSES,
    counts: { all: 0, moving: 0, idling: 0, stopped: 0, offline: 0, notActivated: 0 },
    imei: [],
    name: [],
    mcType: [],
    appTypes: APPLICATION_TYPES,
    appType: [],
    status: [],
    lat: [],
    lng: [],
    speed: [],
    course: [],
    gpsTime: [],
    hbTime: [],
    acc: [],
    group: [],
    followed: [],
  };
  for (const d of devices) {
    const state = directory.state(d.imei) ?? null;
    const status = deriveStatus(state, now, offlineMs);
    const p = state?.position ?? null;
    out.counts.all++;
    out.counts[countKeyOf(status)]++;
    out.imei.push(d.imei);
    out.name.push(d.deviceName);
    out.mcType.push(d.mcType);
    out.appType.push(appTypeIndex(d));
    out.status.push(STATUS_INDEX.get(status)!);
    out.lat.push(p ? Math.round(p.lat * 1e6) / 1e6 : null);
    out.lng.push(p ? Math.round(p.lng * 1e6) / 1e6 : null);
    out.speed.push(p ? Math.round(p.speed * 10) / 10 : 0);
    out.course.push(p ? p.course : 0);
    out.gpsTime.push(state?.gpsTime ?? null);
    out.hbTime.push(state?.hbTime ?? null);
    out.acc.push(state?.acc ?? null);
    out.group.push(d.groupId ? extras.groupName?.(d.userId, d.groupId) ?? "" : "");
    out.followed.push(extras.followed?.has(d.imei) ?? false);
    if (extras.facts) {
      out.facts = {
        battery: state?.battery ?? p?.battery ?? null,
        signal: state?.signal ?? p?.signal ?? null,
        odometerKm: p?.mileage ?? null,
        lastMovingAt: state?.lastMovingAt ?? null,
        address: null,
        driver: null,
      };
    }
  }
  return out;
}

/** The devices owned by a set of accounts. */
export function* devicesOf(
  directory: DeviceDirectory,
  owners: Iterable<string>,
): Generator<Device> {
  for (const owner of owners) yield* directory.ownedBy(owner);
}
