import { z } from "zod";
import type { ApiRegistry } from "../../lib/http/api.ts";
import { imei } from "../devices/schemas.ts";
import {
  COMMON_ADDRESS_COLOR,
  COMMON_ADDRESS_MAX,
  COMMON_ADDRESS_NAME_MAX,
  COMMON_ADDRESS_RADIUS,
} from "./model.ts";
import type { CommonAddresses } from "./service.ts";

/** The services these routes use (the composition root passes them). */
export interface CommonAddressRouteDeps {
  commonAddresses: CommonAddresses;
}

const item = z.object({
  color: z.string().regex(/^#[0-9a-fA-F]{6}$/, "validation.colorForm").default(
    COMMON_ADDRESS_COLOR,
  ),
  addressName: z.string().trim().min(1).max(COMMON_ADDRESS_NAME_MAX),
  radius: z.number().int().min(COMMON_ADDRESS_RADIUS.min).max(COMMON_ADDRESS_RADIUS.max),
  latitude: z.number().min(-90).max(90),
  longitude: z.number().min(-180).max(180),
}).strict();

export function registerCommonAddressRoutes(api: ApiRegistry, s: CommonAddressRouteDeps) {
  const tag = "Devices";
  api.add({
    method: "post",
    path: "/v3/new/device/commonAddress/list",
    need: "read",
    tag,
    summary: "A device's common addresses (commonAddressList: named places with colour and radius)",
    body: z.object({ imei }).strict(),
    handler: async ({ body, c }) => ({
      commonAddressList: await s.commonAddresses.list(c.var.session, body.imei),
    }),
  });
  api.add({
    method: "post",
    path: "/v3/new/device/commonAddress/save",
    need: "editData",
    tag,
    summary:
      `Replace a device's common addresses (at most ${COMMON_ADDRESS_MAX}; radius in metres)`,
    body: z.object({
      imei,
      // The limit itself is the service's catalogue refusal; this only bounds the body.
      commonAddressList: z.array(item).max(COMMON_ADDRESS_MAX * 5),
    }).strict(),
    handler: async ({ body, c }) => ({
      commonAddressList: await s.commonAddresses.save(
        c.var.session,
        body.imei,
        body.commonAddressList,
      ),
    }),
  });
}
