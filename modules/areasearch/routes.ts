import { z } from "zod";
import type { ApiRegistry } from "../../lib/http/api.ts";
import type { AreaSearch } from "./service.ts";

/** The services these routes use (the composition root passes them). */
export interface AreaSearchRouteDeps {
  areaSearch: AreaSearch;
}

export function registerAreaSearchRoutes(api: ApiRegistry, s: AreaSearchRouteDeps) {
  api.add({
    method: "post",
    path: "/v3/new/monitor/areaSearch",
    need: "read",
    tag: "Monitor",
    summary:
      "Area car-finding: visible devices within radiusKm (0 < r < 50) of a point, nearest first",
    body: z.object({
      lat: z.number().min(-90).max(90),
      lng: z.number().min(-180).max(180),
      // The range rule is the service's catalogue refusal (areaRadiusInvalid).
      radiusKm: z.number().min(0).max(1000),
    }).strict(),
    handler: ({ body, c }) => s.areaSearch.search(c.var.session, body),
  });
}
