import type { z } from "zod";
import type { ApiRegistry } from "../../lib/http/api.ts";
import type { Session } from "../../lib/http/env.ts";
import { reverseBody, searchBody } from "./schemas.ts";
import type { AccessGuard } from "../accounts/access.ts";
import type { DeviceService } from "../devices/service.ts";
import type { Geocoder } from "./service.ts";

/** The services these routes use (the composition root passes them). */
export interface GeocoderRouteDeps {
  access: AccessGuard;
  devices: DeviceService;
  geocoder: Geocoder;
}

/** The account whose landmarks apply: a visible one asked for, else the caller's own. */
async function accountOf(s: GeocoderRouteDeps, session: Session, userId?: string): Promise<string> {
  if (userId) return (await s.access.visibleAccount(session, userId)).id;
  return (await s.access.caller(session)).owner.id;
}

/** Each point's landmark owners: its device's owner (when visible), then the account. */
async function ownersOf(
  s: GeocoderRouteDeps,
  session: Session,
  body: z.infer<typeof reverseBody>,
): Promise<string[][]> {
  const account = await accountOf(s, session, body.userId);
  const imeis = [...new Set(body.points.flatMap((p) => p.imei ? [p.imei] : []))];
  const { devices } = imeis.length
    ? await s.devices.visibleOrRefused(session, imeis)
    : { devices: [] };
  const ownerOf = new Map(devices.map((d) => [d.imei, d.userId]));
  return body.points.map((p) => {
    const owner = p.imei ? ownerOf.get(p.imei) : undefined;
    return owner && owner !== account ? [owner, account] : [account];
  });
}

export function registerGeocoderRoutes(api: ApiRegistry, s: GeocoderRouteDeps) {
  const tag = "Geocoder";
  api.add({
    method: "post",
    path: "/v3/new/geocoder/reverse",
    need: "read",
    tag,
    summary:
      "Addresses of up to 200 points: the landmark holding the point, else the street (GEOCODER_URL), else the nearest named place",
    body: reverseBody,
    handler: async ({ body, c }) => {
      const owners = await ownersOf(s, c.var.session, body);
      const list = await s.geocoder.describeMany(
        body.points.map((p, i) => ({ lat: p.lat, lng: p.lng, owners: owners[i] })),
        c.var.lang,
      );
      return { list };
    },
  });
  api.add({
    method: "post",
    path: "/v3/new/geocoder/search",
    need: "read",
    tag,
    summary: "Landmarks of the account, then named places of the dataset, matching a name",
    body: searchBody,
    handler: async ({ body, c }) => {
      const account = await accountOf(s, c.var.session, body.userId);
      return { list: await s.geocoder.search(body.q, account, c.var.lang, body.limit) };
    },
  });
}
