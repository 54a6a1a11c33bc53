import { z } from "zod";
import { BizError } from "../../lib/errors.ts";
import type { ApiRegistry } from "../../lib/http/api.ts";
import { KmlImport } from "./kml_import.ts";
import * as S from "./schemas.ts";
import type { GeofenceService } from "./service.ts";

/** The services these routes use (the composition root passes them). */
export interface GeofenceRouteDeps {
  geofences: GeofenceService;
}

/** KML/KMZ uploads above this are refused. */
const MAX_IMPORT_BYTES = 2 * 1024 * 1024;

export function registerGeofenceRoutes(api: ApiRegistry, s: GeofenceRouteDeps) {
  registerGeofenceItemRoutes(api, s);
  registerGeofenceGroupRoutes(api, s);
  registerGeofenceImportRoutes(api, s);
}

/** Fences, landmarks and black-car addresses: list, layer, save, delete, bind and review. */
function registerGeofenceItemRoutes(api: ApiRegistry, s: GeofenceRouteDeps) {
  const tag = "Geofences";
  const g = s.geofences;
  api.add({
    method: "post",
    path: "/v3/new/geofence/list",
    need: "read",
    tag,
    summary: "Fences, landmarks or black-car addresses of an account (paged, by group/name/review)",
    body: S.listBody,
    handler: ({ body, c }) => g.list(c.var.session, body),
  });
  api.add({
    method: "post",
    path: "/v3/new/geofence/layer",
    need: "read",
    tag,
    summary: "Every zone of one kind for a map layer (e.g. landmarks on the monitor map)",
    body: z.object({ kind: S.zoneKind, userId: z.string().max(64).optional() }).strict(),
    handler: ({ body, c }) => g.mapLayer(c.var.session, body.kind, body.userId),
  });
  api.add({
    method: "post",
    path: "/v3/new/geofence/save",
    need: "editData",
    tag,
    summary: "Create (no id) or edit a fence, landmark or black-car address",
    body: S.zoneBody,
    handler: ({ body, c }) => g.save(c.var.session, body),
  });
  api.add({
    method: "post",
    path: "/v3/new/geofence/delete",
    need: "editData",
    tag,
    summary: "Delete a zone",
    body: S.idBody,
    handler: ({ body, c }) => g.remove(c.var.session, body.id),
  });
  api.add({
    method: "post",
    path: "/v3/new/geofence/bind",
    need: "editData",
    tag,
    summary: "Bind devices to a fence (empty: every device of the owner)",
    body: S.bindBody,
    handler: ({ body, c }) => g.bind(c.var.session, body.id, body.imeis),
  });
  api.add({
    method: "post",
    path: "/v3/new/geofence/review",
    need: "editData",
    tag,
    summary: "Pass or reject a black-car address (platform administrator)",
    body: S.reviewBody,
    handler: ({ body, c }) => g.review(c.var.session, body.id, body.review),
  });
}

/** Geofence groups. */
function registerGeofenceGroupRoutes(api: ApiRegistry, s: GeofenceRouteDeps) {
  const tag = "Geofences";
  const g = s.geofences;
  api.add({
    method: "post",
    path: "/v3/new/geofence/group/list",
    need: "read",
    tag,
    summary: "Zone groups of an account with their zone counts",
    body: S.groupListBody,
    handler: ({ body, c }) => g.groups(c.var.session, body.userId),
  });
  api.add({
    method: "post",
    path: "/v3/new/geofence/group/save",
    need: "editData",
    tag,
    summary: "Create or rename a group (the default group cannot be edited)",
    body: S.groupBody,
    handler: ({ body, c }) => g.saveGroup(c.var.session, body),
  });
  api.add({
    method: "post",
    path: "/v3/new/geofence/group/delete",
    need: "editData",
    tag,
    summary: "Delete an empty group",
    body: S.idBody,
    handler: ({ body, c }) => g.removeGroup(c.var.session, body.id),
  });
  api.add({
    method: "post",
    path: "/v3/new/geofence/group/top",
    need: "editData",
    tag,
    summary: "Stick a group on top of the list, or release it",
    body: S.groupTopBody,
    handler: ({ body, c }) => g.topGroup(c.var.session, body.id, body.top),
  });
  api.add({
    method: "post",
    path: "/v3/new/geofence/group/move",
    need: "editData",
    tag,
    summary: "Move zones (at most 20 per batch) into a group of the same account",
    body: S.groupMoveBody,
    handler: ({ body, c }) => g.moveToGroup(c.var.session, body.groupId, body.ids),
  });
}

/** KML/KMZ import. */
function registerGeofenceImportRoutes(api: ApiRegistry, s: GeofenceRouteDeps) {
  const tag = "Geofences";
  const kml = new KmlImport(s.geofences);
  api.add({
    method: "post",
    path: "/v3/new/geofence/import",
    need: "editData",
    tag,
    summary:
      "Import a KML or KMZ file (multipart: file, kind, groupId?) — one result per placemark",
    handler: async ({ c }) => {
      const session = c.var.session;
      const form = await c.req.formData().catch(() => null);
      const file = form?.get("file");
      if (!(file instanceof File) || file.size === 0) throw new BizError("kmlFileRequired");
      if (file.size > MAX_IMPORT_BYTES) throw new BizError("payloadTooLarge", {}, null, 413);
      const kind = S.zoneKind.safeParse(form?.get("kind") ?? "fence");
      if (!kind.success) throw new BizError("illegalParameter", { field: "kind" });
      const groupId = String(form?.get("groupId") ?? "") || undefined;
      const bytes = new Uint8Array(await file.arrayBuffer());
      return await kml.run(session, { name: file.name, bytes }, kind.data, groupId, c.var.t);
    },
  });
}
