import type { Context } from "hono";
import { z } from "zod";
import { BizError } from "../../lib/errors.ts";
import type { ApiRegistry } from "../../lib/http/api.ts";
import type { AppEnv } from "../../lib/http/env.ts";
import { zodRefusal } from "../../lib/http/validation.ts";
import type { DriverAvatars } from "./avatars.ts";
import type { BoardService } from "./board.ts";
import type { DriverService } from "./drivers.ts";
import * as S from "./schemas.ts";
import { type DriverSheets, swipeBook, type Translate, XLSX_TYPE } from "./sheets.ts";
import type { SwipeService } from "./swipes.ts";
import type { VehicleService } from "./vehicles.ts";

/** The services these routes use (the composition root passes them). */
export interface FleetRouteDeps {
  fleetDrivers: DriverService;
  fleetVehicles: VehicleService;
  fleetSwipes: SwipeService;
  fleetBoard: BoardService;
  fleetAvatars: DriverAvatars;
  fleetDriverSheets: DriverSheets;
}

/** The avatar upload route, whose body may exceed the JSON limit (app/app.ts). */
export const FLEET_AVATAR_PATH = "/v3/new/fleet/driver/avatar";
export const FLEET_AVATAR_BODY_LIMIT = 2048 * 1024 + 64 * 1024;

const F = "/v3/new/fleet";

/**
 * Drivers and vehicles: `POST /v3/new/fleet/{driver|vehicle}/{add|update|delete|list}`
 * (enterprise accounts and administrators only; the service refuses everyone else).
 */
export function registerFleetRoutes(api: ApiRegistry, s: FleetRouteDeps) {
  const tag = "Fleet";
  const drivers = s.fleetDrivers;
  const vehicles = s.fleetVehicles;
  api.add({
    method: "post",
    path: `${F}/driver/add`,
    need: "editData",
    tag,
    summary:
      "Add a driver (name ≤ 20, phone digits/+/-, dates YYYY-MM-DD with expiry not before register, RFID card unique in the enterprise, max speed ≤ 200)",
    body: S.driverAddBody,
    handler: ({ body, c }) => drivers.add(c.var.session, body),
  });
  api.add({
    method: "post",
    path: `${F}/driver/update`,
    need: "editData",
    tag,
    summary: "Change a driver (any field of add, with its id)",
    body: S.driverUpdateBody,
    handler: ({ body, c }) => drivers.update(c.var.session, body),
  });
  api.add({
    method: "post",
    path: `${F}/driver/delete`,
    need: "editData",
    tag,
    summary: "Delete drivers",
    body: S.idsBody,
    handler: ({ body, c }) => drivers.remove(c.var.session, body.ids),
  });
  api.add({
    method: "post",
    path: `${F}/driver/list`,
    need: "read",
    tag,
    summary: "Drivers of the enterprise and its sub-accounts (paged; keyword, licence state)",
    body: S.driverListBody,
    handler: ({ body, c }) => drivers.list(c.var.session, body),
  });
  api.add({
    method: "post",
    path: `${F}/vehicle/add`,
    need: "editData",
    tag,
    summary:
      "Add a vehicle (plate, bound device: one vehicle per device; a suspicious VIN is refused with vinSuspicious unless force is true)",
    body: S.vehicleAddBody,
    handler: ({ body, c }) => vehicles.add(c.var.session, body),
  });
  api.add({
    method: "post",
    path: `${F}/vehicle/update`,
    need: "editData",
    tag,
    summary: "Change a vehicle (any field of add, with its id)",
    body: S.vehicleUpdateBody,
    handler: ({ body, c }) => vehicles.update(c.var.session, body),
  });
  api.add({
    method: "post",
    path: `${F}/vehicle/delete`,
    need: "editData",
    tag,
    summary: "Delete vehicles",
    body: S.idsBody,
    handler: ({ body, c }) => vehicles.remove(c.var.session, body.ids),
  });
  api.add({
    method: "post",
    path: `${F}/vehicle/list`,
    need: "read",
    tag,
    summary:
      "Vehicles of the enterprise and its sub-accounts (paged; keyword, status, insurance state)",
    body: S.vehicleListBody,
    handler: ({ body, c }) => vehicles.list(c.var.session, body),
  });
  api.add({
    method: "post",
    path: `${F}/vehicle/assign`,
    need: "editData",
    tag,
    summary: 'Assign a driver to a vehicle and so to its device (driverId "" unassigns)',
    body: S.assignBody,
    handler: ({ body, c }) => vehicles.assign(c.var.session, body.vehicleId, body.driverId),
  });
  registerDriverFileRoutes(api, s, tag);
  registerSwipeAndBoardRoutes(api, s, tag);
}

const tr = (c: Context<AppEnv>): Translate => (key, params) => c.var.t(key, params ?? {});

function xlsx(bytes: Uint8Array<ArrayBuffer>, name: string): Response {
  return new Response(bytes, {
    headers: { "content-type": XLSX_TYPE, "content-disposition": `attachment; filename="${name}"` },
  });
}

async function fileBytes(form: FormData): Promise<Uint8Array> {
  const file = form.get("file");
  if (!(file instanceof File)) {
    throw new BizError("illegalParameter", { field: "file", reasonKey: "validation.required" });
  }
  return new Uint8Array(await file.arrayBuffer());
}

const avatarForm = z.object({ id: S.fleetId, file: z.file() });

/** Avatars, and drivers as xlsx (template, export, import). */
function registerDriverFileRoutes(api: ApiRegistry, s: FleetRouteDeps, tag: string) {
  api.add({
    method: "post",
    path: FLEET_AVATAR_PATH,
    need: "editData",
    tag,
    summary: "A driver's photo (multipart: id, file; jpg or png under 2 MB, checked by content)",
    form: avatarForm,
    handler: async ({ c }) => {
      const form = await c.req.formData();
      const id = S.fleetId.safeParse(form.get("id") ?? undefined);
      if (!id.success) throw zodRefusal(id.error);
      return s.fleetAvatars.upload(c.var.session, id.data, await fileBytes(form));
    },
  });
  api.add({
    method: "get",
    path: `${FLEET_AVATAR_PATH}/:id`,
    need: "read",
    tag,
    summary: "A driver's photo (404 when none or not visible)",
    produces: "image/*",
    handler: async ({ c }) => {
      const res = await s.fleetAvatars.serve(c.var.session, c.req.param("id") ?? "");
      if (!res) throw new BizError("notFound", {}, null, 404);
      return res;
    },
  });
  api.add({
    method: "get",
    path: `${F}/driver/template`,
    need: "read",
    tag,
    summary: "The driver import template (xlsx)",
    produces: XLSX_TYPE,
    handler: async ({ c }) =>
      xlsx(await s.fleetDriverSheets.template(tr(c)), "drivers-template.xlsx"),
  });
  api.add({
    method: "post",
    path: `${F}/driver/export`,
    need: "read",
    tag,
    summary: "Every driver of the enterprise and its sub-accounts as xlsx",
    body: S.boardBody,
    produces: XLSX_TYPE,
    handler: async ({ c }) =>
      xlsx(await s.fleetDriverSheets.export(c.var.session, tr(c)), "drivers.xlsx"),
  });
  api.add({
    method: "post",
    path: `${F}/driver/import`,
    need: "editData",
    tag,
    summary: "Add drivers from an xlsx (multipart: file; template columns); one result per row",
    form: z.object({ file: z.file().mime([XLSX_TYPE]) }),
    handler: async ({ c }) => {
      const form = await c.req.formData();
      return s.fleetDriverSheets.import(c.var.session, await fileBytes(form), tr(c));
    },
  });
}

/** RFID swipe records and the data board. */
function registerSwipeAndBoardRoutes(api: ApiRegistry, s: FleetRouteDeps, tag: string) {
  api.add({
    method: "post",
    path: `${F}/rfid/list`,
    need: "read",
    tag,
    summary:
      "RFID swipes (JT/T 808 0x0702, GT06 RFID) in a date range (days in the caller's time zone), newest first; driverId, imei, vehicleId, unknown cards",
    body: S.rfidListBody,
    handler: ({ body, c }) => s.fleetSwipes.list(c.var.session, body),
  });
  api.add({
    method: "post",
    path: `${F}/rfid/export`,
    need: "read",
    tag,
    summary: "The filtered RFID swipes as xlsx",
    body: S.rfidExportBody,
    produces: XLSX_TYPE,
    handler: async ({ body, c }) =>
      xlsx(
        await swipeBook(
          await s.fleetSwipes.rows(c.var.session, body),
          tr(c),
          await s.fleetSwipes.timeZone(c.var.session),
        ),
        "rfid.xlsx",
      ),
  });
  api.add({
    method: "post",
    path: `${F}/board`,
    need: "read",
    tag,
    summary:
      "The fleet data board: vehicles by status, drivers on duty, expiring licences and insurance, today's distance and driving time per vehicle",
    body: S.boardBody,
    handler: ({ c }) => s.fleetBoard.board(c.var.session),
  });
}
