import { z } from "zod";
import type { ApiRegistry } from "../../lib/http/api.ts";
import {
  objectsQuery,
  shareCreateBody,
  shareListBody,
  shareTokenBody,
  streamQuery,
} from "./schemas.ts";
import { sseResponse } from "./stream.ts";
import type { ShareLink } from "./share.ts";
import type { ObjectsPayload } from "./objects.ts";
import type { Lang } from "../../lib/i18n/i18n.ts";
import type { AccessGuard } from "../accounts/access.ts";
import type { DeviceDirectory } from "../devices/directory.ts";
import type { Geocoder } from "../geocoder/service.ts";
import type { MonitorService } from "./service.ts";
import type { DriverTimeline } from "../fleet/model.ts";

/** The services these routes use (the composition root passes them). */
export interface MonitorRouteDeps {
  access: AccessGuard;
  directory: DeviceDirectory;
  geocoder: Geocoder;
  monitor: MonitorService;
  driverTimeline: DriverTimeline;
}

/**
 * Fills a single device's card address (its owner's landmarks first, then the viewer's);
 * the list of many devices asks the geocoder route for the rows it shows instead.
 */
async function withAddress(
  s: MonitorRouteDeps,
  data: ObjectsPayload,
  viewer: string | null,
  lang: Lang,
): Promise<ObjectsPayload> {
  const lat = data.lat[0], lng = data.lng[0];
  if (!data.facts || lat === null || lng === null) return data;
  const owner = s.directory.get(data.imei[0])?.userId;
  const owners = [owner, viewer].filter((o): o is string => !!o);
  const found = await s.geocoder.describe(lat, lng, owners, lang);
  data.facts.address = found.text || null;
  return data;
}

/** A single device's card names who drives it now (fleet swipes, else the vehicle's driver). */
async function withDriver(s: MonitorRouteDeps, data: ObjectsPayload): Promise<ObjectsPayload> {
  if (!data.facts || !data.imei.length) return data;
  const [driver] = await s.driverTimeline.driversAt(data.imei[0], [data.now]);
  data.facts.driver = driver?.name ?? null;
  return data;
}

const shareView = (l: ShareLink) => ({
  token: l.token,
  imei: l.imei,
  url: `/monitorShare?token=${encodeURIComponent(l.token)}`,
  createdAt: new Date(l.createdAt).toISOString(),
  expiresAt: new Date(l.expiresAt).toISOString(),
  expired: Date.now() >= l.expiresAt,
});

const tokenQuery = z.object({ token: z.string().min(1).max(100) }).strict();

export function registerMonitorRoutes(api: ApiRegistry, s: MonitorRouteDeps) {
  const tag = "Monitor";
  api.add({
    method: "get",
    path: "/v3/new/monitor/objects",
    need: "read",
    tag,
    summary:
      "Every visible device (or one, by imei) with latest position and status, as parallel arrays, plus status counts",
    query: objectsQuery,
    handler: async ({ query, c }) => {
      const data = await s.monitor.objects(c.var.session, query.imei);
      if (!query.imei) return data;
      const viewer = (await s.access.caller(c.var.session)).owner.id;
      return await withDriver(s, await withAddress(s, data, viewer, c.var.lang));
    },
  });
  api.add({
    method: "get",
    path: "/v3/new/monitor/stream",
    need: "read",
    tag,
    summary:
      "Server-sent events of the caller's subtree (or one device): pos, status and alert, coalesced every 250 ms",
    query: streamQuery,
    handler: async ({ query, c }) =>
      sseResponse(await s.monitor.stream(c.var.session, c.req.raw.signal, query.imei)),
  });
  api.add({
    method: "post",
    path: "/v3/new/monitor/share/create",
    need: "editData",
    tag,
    summary: "Creates a public live-location link for a device, valid 1-720 whole hours",
    body: shareCreateBody,
    handler: async ({ body, c }) =>
      shareView(await s.monitor.shares.create(c.var.session, body.imei, body.hours)),
  });
  api.add({
    method: "post",
    path: "/v3/new/monitor/share/list",
    need: "read",
    tag,
    summary: "Share links of a device, newest first",
    body: shareListBody,
    handler: async ({ body, c }) =>
      (await s.monitor.shares.list(c.var.session, body.imei)).map(shareView),
  });
  api.add({
    method: "post",
    path: "/v3/new/monitor/share/revoke",
    need: "editData",
    tag,
    summary: "Revokes a share link at once",
    body: shareTokenBody,
    handler: ({ body, c }) => s.monitor.shares.revoke(c.var.session, body.token),
  });
  api.add({
    method: "get",
    path: "/v3/new/monitor/share/view",
    need: "public",
    tag,
    access: "public",
    summary: "The shared device's latest position (no login); refused once the link expired",
    query: tokenQuery,
    handler: async ({ query, c }) => {
      const link = await s.monitor.shares.open(query.token);
      return {
        expiresAt: new Date(link.expiresAt).toISOString(),
        objects: await withAddress(s, s.monitor.oneObject(link.imei), null, c.var.lang),
      };
    },
  });
  api.add({
    method: "get",
    path: "/v3/new/monitor/share/stream",
    need: "public",
    tag,
    access: "public",
    summary: "Server-sent events of the shared device (no login); stops delivering at expiry",
    query: tokenQuery,
    handler: async ({ query, c }) => {
      const link = await s.monitor.shares.open(query.token);
      const allow = (ev: { imei: string }) => ev.imei === link.imei && Date.now() < link.expiresAt;
      return sseResponse(
        s.monitor.streams.stream(allow, {
          signal: c.req.raw.signal,
          scope: s.monitor.deviceScope(link.imei),
        }),
      );
    },
  });
}
