import type { ApiRegistry } from "../../lib/http/api.ts";
import { reverseBody, searchBody } from "./schemas.ts";
import type { AccessGuard } from "../accounts/access.ts";
import type { DeviceService } from "../devices/service.ts";
import type { Geocoder } from "./service.ts";
import { LandmarkOwners } from "./landmark_owners.ts";

/** The services these routes use (the composition root passes them). */
export interface GeocoderRouteDeps {
  access: AccessGuard;
  devices: DeviceService;
  geocoder: Geocoder;
}

export function registerGeocoderRoutes(api: ApiRegistry, s: GeocoderRouteDeps) {
  const tag = "Geocoder";
  const owners = new LandmarkOwners(s.access, s.devices);
  api.add({
    method: "post",
    path: "/v3/new/geocoder/reverse",
    need: "read",
    tag,
    summary:
      "Addresses of up to 200 points: the landmark holding the point, else the street (GEOCODER_URL), else the nearest named place",
    body: reverseBody,
    handler: async ({ body, c }) => {
      const pointOwners = await owners.ofPoints(c.var.session, body.points, body.userId);
      const list = await s.geocoder.describeMany(
        body.points.map((p, i) => ({ lat: p.lat, lng: p.lng, owners: pointOwners[i] })),
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
      const account = await owners.account(c.var.session, body.userId);
      return { list: await s.geocoder.search(body.q, account, c.var.lang, body.limit) };
    },
  });
}
