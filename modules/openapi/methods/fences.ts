/**
 * Fence methods. Platform fences are the account's fences (modules/geofences: the platform
 * evaluates them for every fix of the bound devices, or of all its devices when none are
 * bound). A device fence is the same fence bound to one device: we check fences on the
 * platform for every protocol instead of programming the tracker's own fence.
 */
import { z } from "zod";
import { BizError } from "../../../lib/errors.ts";
import type { Session } from "../../../lib/http/env.ts";
import type { Zone } from "../../geofences/model.ts";
import { zoneBody } from "../../geofences/schemas.ts";
import { fromDatum } from "../../monitor/geo.ts";
import { OPEN_CODES, OpenApiError, type OpenMethod } from "../types.ts";
import {
  formatIso,
  imeiList,
  imeiParam,
  intParam,
  type MapType,
  mapType,
  onMap,
  ownDevices,
  round,
} from "./common.ts";
import type { OpenMethodDeps } from "./deps.ts";

type Deps = Pick<OpenMethodDeps, "access" | "devices" | "geofences">;

const alarmType = z.enum(["in", "out", "in,out"]).default("in,out");
const color = z.string().regex(/^#[0-9a-fA-F]{6}$/, "fence_color: #rrggbb").optional();

/** "lat,lng" pairs separated by ";" (a polygon is closed when its last point is not its first). */
function parseGeom(geom: string, map: MapType): { lat: number; lng: number }[] | null {
  const points = geom.split(";").map((pair) => pair.split(",").map((x) => Number(x.trim())));
  if (points.some((p) => p.length !== 2 || p.some((n) => !Number.isFinite(n)))) return null;
  return points.map(([lat, lng]) => {
    const [wLng, wLat] = map && map !== "WGS84"
      ? fromDatum(map === "BAIDU" ? "BD09" : "GCJ02", lng, lat)
      : [lng, lat];
    return { lat: round(wLat, 7), lng: round(wLng, 7) };
  });
}

interface FenceInput {
  name: string;
  type: "circle" | "polygon";
  geom: string;
  radius?: number;
  color?: string;
  description?: string;
  alarm: "in" | "out" | "in,out";
  imeis: string[];
  map: MapType;
}

/** Saves a new fence through the geofence service; 1114 when the owner has the name already. */
async function createFence(d: Deps, session: Session, f: FenceInput): Promise<Zone> {
  const { owner } = await d.access.caller(session);
  if (
    d.geofences.zonesOf(owner.id).some((e) => e.zone.kind === "fence" && e.zone.name === f.name)
  ) {
    throw new OpenApiError(OPEN_CODES.fenceNameExists, "fence name exists");
  }
  const points = parseGeom(f.geom, f.map);
  if (!points || (f.type === "circle" && points.length !== 1)) {
    throw new OpenApiError(OPEN_CODES.parameter, "geom: lat,lng[;lat,lng…]");
  }
  if (f.type === "polygon" && points.length > 0) {
    const [a, z0] = [points[0], points.at(-1)!];
    if (a.lat !== z0.lat || a.lng !== z0.lng) points.push(a);
  }
  const body = zoneBody.safeParse({
    kind: "fence",
    name: f.name,
    description: f.description ?? "",
    shape: f.type === "circle"
      ? { kind: "circle", center: points[0], radius: f.radius ?? 0 }
      : { kind: "polygon", points },
    ...(f.color ? { color: f.color } : {}),
    enterAlert: f.alarm.includes("in"),
    exitAlert: f.alarm.includes("out"),
    imeis: f.imeis,
  });
  if (!body.success) {
    const issue = body.error.issues[0];
    throw new OpenApiError(OPEN_CODES.parameter, `${issue.path.join(".")}: ${issue.message}`);
  }
  return await d.geofences.save(session, body.data);
}

/** A fence in the public field set, coordinates on the asked map. */
function fenceFields(z: Zone, map: MapType) {
  const pt = (p: { lat: number; lng: number }) => {
    const [lng, lat] = onMap(map, p.lng, p.lat);
    return `${round(lat, 6)},${round(lng, 6)}`;
  };
  return {
    fenceId: z.id,
    fenceName: z.name,
    fenceType: z.shape.kind,
    geom: z.shape.kind === "circle" ? pt(z.shape.center) : z.shape.points.map(pt).join(";"),
    radius: z.shape.kind === "circle" ? z.shape.radius : null,
    fenceColor: z.color,
    description: z.description,
    alarmType: [z.enterAlert ? "in" : "", z.exitAlert ? "out" : ""].filter(Boolean).join(","),
    imeis: z.imeis.join(","),
    createTime: formatIso(z.createdAt),
  };
}

/** Removes a fence the caller sees; 1002 for one of another subtree (or none). */
async function removeFence(d: Deps, session: Session, id: string, imei?: string) {
  try {
    const zone = await d.geofences.visibleZone(session, id);
    if (zone.kind !== "fence" || (imei && !zone.imeis.includes(imei))) {
      throw new BizError("permissionDenied");
    }
    await d.geofences.remove(session, id);
  } catch (e) {
    if (e instanceof BizError && e.key === "permissionDenied") {
      throw new OpenApiError(OPEN_CODES.illegalUserOrDevice, "illegal fence");
    }
    throw e;
  }
}

export function fenceMethods(d: Deps): OpenMethod[] {
  const createParams = z.object({
    fence_name: z.string().trim().min(1).max(50),
    fence_type: z.enum(["circle", "polygon"]),
    geom: z.string().trim().min(3).max(20_000),
    radius: intParam(1, 100_000).optional(),
    fence_color: color,
    description: z.string().trim().max(500).optional(),
    alarm_type: alarmType,
    imeis: imeiList(1000).optional(),
    map_type: mapType,
  }).strict();
  const create: OpenMethod<typeof createParams> = {
    name: "jimi.open.platform.fence.create",
    need: "editData",
    params: createParams,
    run: async ({ session, params: p }) => {
      if (p.imeis) await ownDevices(d.devices, session, p.imeis);
      const zone = await createFence(d, session, {
        name: p.fence_name,
        type: p.fence_type,
        geom: p.geom,
        radius: p.radius,
        color: p.fence_color,
        description: p.description,
        alarm: p.alarm_type,
        imeis: p.imeis ?? [],
        map: p.map_type,
      });
      return { result: { fenceId: zone.id } };
    },
  };
  const deleteParams = z.object({ fence_id: z.string().trim().min(1).max(80) }).strict();
  const remove: OpenMethod<typeof deleteParams> = {
    name: "jimi.open.platform.fence.delete",
    need: "editData",
    params: deleteParams,
    run: async ({ session, params }) => {
      await removeFence(d, session, params.fence_id);
      return { result: null };
    },
  };
  const listParams = z.object({ imei: imeiParam.optional(), map_type: mapType }).strict();
  const list: OpenMethod<typeof listParams> = {
    name: "jimi.open.platform.fence.list",
    need: "read",
    params: listParams,
    run: async ({ session, params }) => {
      if (params.imei) await ownDevices(d.devices, session, [params.imei]);
      const { owner } = await d.access.caller(session);
      const fences = d.geofences.zonesOf(owner.id).map((e) => e.zone)
        .filter((z) => z.kind === "fence")
        .filter((z) => !params.imei || z.imeis.length === 0 || z.imeis.includes(params.imei))
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
      return { result: fences.map((z) => fenceFields(z, params.map_type)) };
    },
  };
  const deviceCreateParams = z.object({
    imei: imeiParam,
    fence_name: z.string().trim().min(1).max(50),
    alarm_type: alarmType,
    lat: z.string().trim().regex(/^-?\d+(\.\d+)?$/, "lat"),
    lng: z.string().trim().regex(/^-?\d+(\.\d+)?$/, "lng"),
    radius: intParam(1, 100_000),
    map_type: mapType,
  }).strict();
  const deviceCreate: OpenMethod<typeof deviceCreateParams> = {
    name: "jimi.open.device.fence.create",
    need: "editData",
    params: deviceCreateParams,
    run: async ({ session, params: p }) => {
      await ownDevices(d.devices, session, [p.imei]);
      const zone = await createFence(d, session, {
        name: p.fence_name,
        type: "circle",
        geom: `${p.lat},${p.lng}`,
        radius: p.radius,
        alarm: p.alarm_type,
        imeis: [p.imei],
        map: p.map_type,
      });
      return { result: { fenceId: zone.id } };
    },
  };
  const deviceDeleteParams = z.object({
    imei: imeiParam,
    fence_id: z.string().trim().min(1).max(80),
  })
    .strict();
  const deviceDelete: OpenMethod<typeof deviceDeleteParams> = {
    name: "jimi.open.device.fence.delete",
    need: "editData",
    params: deviceDeleteParams,
    run: async ({ session, params }) => {
      await ownDevices(d.devices, session, [params.imei]);
      await removeFence(d, session, params.fence_id, params.imei);
      return { result: null };
    },
  };
  return [create, remove, list, deviceCreate, deviceDelete];
}
