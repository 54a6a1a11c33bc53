import type { ApiRegistry } from "../../lib/http/api.ts";
import * as S from "./paths_schemas.ts";
import type { PathService } from "./paths_service.ts";

/** The services these routes use (the composition root passes them). */
export interface FleetPathRouteDeps {
  fleetPaths: PathService;
}

/** Route planning: `POST /v3/new/fleet/route/{add|update|delete|list}` (enterprise only). */
export function registerFleetPathRoutes(api: ApiRegistry, s: FleetPathRouteDeps) {
  const tag = "Fleet";
  const paths = s.fleetPaths;
  api.add({
    method: "post",
    path: "/v3/new/fleet/route/list",
    need: "read",
    tag,
    summary: "Planned routes of the enterprise and its sub-accounts (paged; keyword, imei)",
    body: S.listBody,
    handler: ({ body, c }) => paths.list(c.var.session, body),
  });
  api.add({
    method: "post",
    path: "/v3/new/fleet/route/add",
    need: "editData",
    tag,
    summary:
      "Plan a route: points (start, via…, end), corridor offset (m), weekdays, HH:mm window, minOffMinutes, bound imeis",
    body: S.addBody,
    handler: ({ body, c }) => paths.add(c.var.session, body),
  });
  api.add({
    method: "post",
    path: "/v3/new/fleet/route/update",
    need: "editData",
    tag,
    summary: "Change a planned route (same fields as add, with its id)",
    body: S.updateBody,
    handler: ({ body, c }) => paths.update(c.var.session, body),
  });
  api.add({
    method: "post",
    path: "/v3/new/fleet/route/delete",
    need: "editData",
    tag,
    summary: "Delete planned routes",
    body: S.deleteBody,
    handler: ({ body, c }) => paths.remove(c.var.session, body.ids),
  });
}
