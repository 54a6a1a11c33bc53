/**
 * What the Open API's methods share: the Tracksolid time format (UTC `yyyy-MM-dd HH:mm:ss`),
 * `map_type` coordinates, IMEI lists that fail whole with 1002, and string parameters as
 * form posts carry them.
 */
import { z } from "zod";
import type { Session } from "../../../lib/http/env.ts";
import type { AccessGuard } from "../../accounts/access.ts";
import type { AccountLookup } from "../../accounts/model.ts";
import type { DeviceService } from "../../devices/service.ts";
import type { Device } from "../../devices/model.ts";
import { toDatum } from "../../monitor/geo.ts";
import { OPEN_CODES, OpenApiError } from "../types.ts";

const TIME_FORM = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

/** A UTC `yyyy-MM-dd HH:mm:ss` string as epoch ms; NaN when it is not one. */
export function parseOpenTime(s: string): number {
  const m = TIME_FORM.exec(s);
  if (!m) return NaN;
  const [y, mo, d, h, mi, se] = m.slice(1).map(Number);
  const t = Date.UTC(y, mo - 1, d, h, mi, se);
  // Date.UTC rolls 2026-02-31 over into March: refuse what does not come back the same.
  return formatOpenTime(t) === s ? t : NaN;
}

/** Epoch ms as UTC `yyyy-MM-dd HH:mm:ss`; "" for null. */
export function formatOpenTime(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return "";
  return new Date(ms).toISOString().slice(0, 19).replace("T", " ");
}

/** An ISO date or time (as records keep them) in the Open API's form; "" for null. */
export function formatIso(iso: string | null | undefined): string {
  if (!iso) return "";
  return iso.length === 10 ? `${iso} 00:00:00` : formatOpenTime(Date.parse(iso));
}

/** A time parameter: required UTC `yyyy-MM-dd HH:mm:ss`. */
export const openTime = z.string().refine((s) => !Number.isNaN(parseOpenTime(s)), {
  message: "yyyy-MM-dd HH:mm:ss (UTC)",
}).transform(parseOpenTime);

/** Coordinates as WGS84 (none), Google (GCJ-02 inside China) or Baidu (BD-09). */
export const mapType = z.enum(["GOOGLE", "BAIDU", "WGS84"]).optional();
export type MapType = z.infer<typeof mapType>;

/** Converts a WGS84 point for the asked map; [lng, lat]. */
export function onMap(map: MapType, lng: number, lat: number): [number, number] {
  if (!map || map === "WGS84") return [lng, lat];
  return toDatum(map === "BAIDU" ? "BD09" : "GCJ02", lng, lat);
}

export const imeiParam = z.string().trim().regex(/^\d{15}$/, "imei: 15 digits");

/** A comma-separated IMEI list of 1 to `max` entries (duplicates dropped, order kept). */
export function imeiList(max: number) {
  return z.string().transform((
    s,
  ) => [...new Set(s.split(",").map((x) => x.trim()).filter(Boolean))])
    .refine((l) => l.length >= 1 && l.length <= max, { message: `1-${max} IMEIs` })
    .refine((l) => l.every((i) => /^\d{15}$/.test(i)), { message: "imei: 15 digits" });
}

/** A whole number given as a string (form posts), within bounds. */
export function intParam(min: number, max: number) {
  return z.string().trim().regex(/^-?\d+$/, "integer").transform(Number).pipe(
    z.number().int().min(min).max(max),
  );
}

/**
 * The named devices, refused as a whole with 1002 when any one is unknown or outside the
 * caller's subtree (the public code "illegal user or device"; nothing tells which).
 */
export async function ownDevices(
  devices: Pick<DeviceService, "visibleOrRefused">,
  session: Session,
  imeis: string[],
): Promise<Device[]> {
  const { devices: seen, refused } = await devices.visibleOrRefused(session, imeis);
  if (refused.length) {
    throw new OpenApiError(OPEN_CODES.illegalUserOrDevice, "illegal device");
  }
  const byImei = new Map(seen.map((d) => [d.imei, d]));
  return imeis.map((i) => byImei.get(i)!);
}

/** Checks a begin/end pair: begin before end, at most `maxDays` apart (Infinity: no cap). */
export function checkRange(begin: number, end: number, maxDays: number): void {
  if (begin > end) {
    throw new OpenApiError(OPEN_CODES.parameter, "begin_time must not be after end_time");
  }
  if (end - begin > maxDays * 86_400_000) {
    throw new OpenApiError(OPEN_CODES.parameter, `at most ${maxDays} days per call`);
  }
}

/** Rounds to `digits` decimals (coordinates 6: ~0.1 m). */
export function round(n: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

/**
 * The account a `target` parameter names (its login name), which must be the caller's own or
 * one of its subtree; the caller's own account when absent. Outside or unknown: 1002.
 */
export async function targetAccount(
  d: { access: AccessGuard; accounts: AccountLookup },
  session: Session,
  target: string | undefined,
) {
  if (!target) return (await d.access.caller(session)).owner;
  const id = await d.accounts.findIdByLogin(target);
  try {
    if (!id) throw new Error("unknown");
    return await d.access.visibleAccount(session, id);
  } catch {
    throw new OpenApiError(OPEN_CODES.illegalUserOrDevice, "illegal user");
  }
}

/** Position types by their public names (1 GPS, 2 LBS, 3 WIFI, 4 IPT, 5 BEACON). */
export const POS_TYPE_NAMES = ["", "GPS", "LBS", "WIFI", "IPT", "BEACON"] as const;
