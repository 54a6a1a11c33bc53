import type { ApiRegistry } from "../../lib/http/api.ts";
import type { DriverService } from "./drivers.ts";
import * as S from "./schemas.ts";
import type { VehicleService } from "./vehicles.ts";

/** The services these routes use (the composition root passes them). */
export interface FleetRouteDeps {
  fleetDrivers: DriverService;
  fleetVehicles: VehicleService;
}

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
}
