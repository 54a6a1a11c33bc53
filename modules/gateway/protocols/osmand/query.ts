/**
 * The query-string form (OsmAnd, Traccar Client before v9, many scripts):
 * `?id=123&lat=60.0&lon=30.0&timestamp=1377177267&speed=0&bearing=0&altitude=0&...`.
 *
 * Speed is in knots (the protocol's default unit). Known keys map to Position fields;
 * every other key becomes an attribute (typed as boolean, number or text).
 */

import type { AlarmType, AttributeValue, Position } from "../types.ts";
import { osmAndAlarm } from "./alarms.ts";
import {
  type CellTower,
  networkAttributes,
  parseCell,
  parseWifi,
  type WifiAccessPoint,
} from "./network.ts";
import { batteryPercent, failure, type OsmAndResult } from "./result.ts";
import {
  coerceAttribute,
  isLatitude,
  isLongitude,
  isSafeAttributeKey,
  normalizeCourse,
  parseBoolean,
  parseDecimal,
  parseTimestamp,
} from "./values.ts";

const MAX_PARAMS = 200;

interface Draft {
  deviceId?: string;
  time?: Date;
  valid?: boolean;
  latitude?: number;
  longitude?: number;
  altitude?: number;
  speed?: number;
  course?: number;
  battery?: number;
  acc?: boolean;
  alarm?: AlarmType;
  attributes: Record<string, AttributeValue>;
  cells: CellTower[];
  wifis: WifiAccessPoint[];
}

/** Applies one parameter; returns an error message when its value is malformed. */
type Handler = (draft: Draft, value: string) => string | undefined;

function numeric(name: string, apply: (draft: Draft, value: number) => string | void): Handler {
  return (draft, value) => {
    const number = parseDecimal(value);
    if (number === undefined) return `invalid ${name}`;
    return apply(draft, number) || undefined;
  };
}

function flag(name: string, apply: (draft: Draft, value: boolean) => void): Handler {
  return (draft, value) => {
    const parsed = parseBoolean(value);
    if (parsed === undefined) return `invalid ${name}`;
    apply(draft, parsed);
  };
}

const setDeviceId: Handler = (draft, value) => {
  draft.deviceId = value.trim();
};

const setCourse = numeric("bearing", (draft, value) => {
  draft.course = normalizeCourse(value);
});

const setAccuracy = numeric("accuracy", (draft, value) => {
  draft.attributes.accuracy = value;
});

/** A Map, not an object literal, so keys like `constructor` never hit Object.prototype. */
const HANDLERS = new Map<string, Handler>([
  ["id", setDeviceId],
  ["deviceid", setDeviceId],
  ["timestamp", (draft, value) => {
    draft.time = parseTimestamp(value);
    return draft.time ? undefined : "invalid timestamp";
  }],
  [
    "lat",
    numeric("lat", (draft, value) => {
      if (!isLatitude(value)) return "lat out of range";
      draft.latitude = value;
    }),
  ],
  [
    "lon",
    numeric("lon", (draft, value) => {
      if (!isLongitude(value)) return "lon out of range";
      draft.longitude = value;
    }),
  ],
  ["location", (draft, value) => {
    const [lat, lon, ...rest] = value.split(",").map(parseDecimal);
    if (rest.length || lat === undefined || lon === undefined) return "invalid location";
    if (!isLatitude(lat) || !isLongitude(lon)) return "location out of range";
    draft.latitude = lat;
    draft.longitude = lon;
  }],
  [
    "speed",
    numeric("speed", (draft, value) => {
      draft.speed = Math.max(0, value);
    }),
  ],
  ["bearing", setCourse],
  ["heading", setCourse],
  [
    "altitude",
    numeric("altitude", (draft, value) => {
      draft.altitude = value;
    }),
  ],
  ["accuracy", setAccuracy],
  ["hacc", setAccuracy],
  [
    "hdop",
    numeric("hdop", (draft, value) => {
      draft.attributes.hdop = value;
    }),
  ],
  [
    "batt",
    numeric("batt", (draft, value) => {
      draft.battery = batteryPercent(value);
    }),
  ],
  [
    "valid",
    flag("valid", (draft, value) => {
      draft.valid = value;
    }),
  ],
  [
    "charge",
    flag("charge", (draft, value) => {
      draft.attributes.charge = value;
    }),
  ],
  [
    "ignition",
    flag("ignition", (draft, value) => {
      draft.acc = value;
    }),
  ],
  ["driverUniqueId", (draft, value) => {
    draft.attributes.driverUniqueId = value.trim();
  }],
  ["alarm", (draft, value) => {
    const name = value.trim().slice(0, 64);
    draft.alarm = osmAndAlarm(name);
    if (draft.alarm !== name) draft.attributes.alarmName = name;
  }],
  ["cell", (draft, value) => {
    const cell = parseCell(value);
    if (!cell) return "invalid cell";
    draft.cells.push(cell);
  }],
  ["wifi", (draft, value) => {
    const wifi = parseWifi(value);
    if (!wifi) return "invalid wifi";
    draft.wifis.push(wifi);
  }],
]);

export function decodeQuery(params: Array<[string, string]>, now: Date): OsmAndResult {
  if (params.length > MAX_PARAMS) return failure("too many parameters");
  const draft: Draft = { attributes: {}, cells: [], wifis: [] };
  for (const [key, value] of params) {
    if (value.trim() === "") continue; // an empty value means "not reported"
    const handler = HANDLERS.get(key);
    if (handler) {
      const error = handler(draft, value);
      if (error) return failure(error);
    } else if (isSafeAttributeKey(key)) {
      draft.attributes[key] = coerceAttribute(value);
    }
  }
  if (!draft.deviceId) return failure("missing device id");
  if ((draft.latitude === undefined) !== (draft.longitude === undefined)) {
    return failure("lat and lon must come together");
  }
  const position = buildPosition(draft, now);
  return { deviceId: draft.deviceId, positions: position ? [position] : [] };
}

function buildPosition(draft: Draft, now: Date): Position | undefined {
  const hasFix = draft.latitude !== undefined && draft.longitude !== undefined;
  const hasNetwork = draft.cells.length > 0 || draft.wifis.length > 0;
  if (!hasFix && !hasNetwork) return undefined;
  const position: Position = {
    time: draft.time ?? now,
    // Without coordinates the position only carries towers/access points for a lookup.
    valid: hasFix ? draft.valid ?? true : false,
    latitude: draft.latitude ?? 0,
    longitude: draft.longitude ?? 0,
    altitude: draft.altitude ?? 0,
    speed: draft.speed ?? 0,
    course: draft.course ?? 0,
    posType: hasFix ? 1 : draft.wifis.length > 0 ? 3 : 2,
    attributes: { ...draft.attributes, ...networkAttributes(draft.cells, draft.wifis) },
  };
  if (draft.battery !== undefined) position.battery = draft.battery;
  if (draft.acc !== undefined) position.acc = draft.acc;
  if (draft.alarm !== undefined) position.alarm = draft.alarm;
  return position;
}
