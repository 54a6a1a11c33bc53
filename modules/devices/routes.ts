import type { ApiRegistry } from "../../lib/http/api.ts";
import type { Services } from "../../lib/services.ts";
import { DEVICE_MODELS } from "./models.ts";
import { importBody, listBody } from "./schemas.ts";

export function registerDeviceRoutes(api: ApiRegistry, s: Services) {
  const tag = "Devices";
  api.add({
    method: "post",
    path: "/v3/new/newEquipment/importEquipment",
    tag,
    summary:
      "Import devices by IMEI (15 digits, at most 1000 per call); each bad IMEI is refused on its own",
    body: importBody,
    handler: ({ body, c }) =>
      s.devices.import(
        c.var.session,
        body,
        (name, params) => c.var.t(`errors.${name}`, params ?? {}),
      ),
  });
  api.add({
    method: "post",
    path: "/v3/new/newEquipment/queryEquipmentList",
    tag,
    summary: "Devices of an account's subtree with their latest position and status",
    body: listBody,
    handler: ({ body, c }) => s.devices.list(c.var.session, body),
  });
  api.add({
    method: "get",
    path: "/v3/new/newDevice/getAllMcType",
    tag,
    summary: "Device models and their protocols",
    handler: () => DEVICE_MODELS,
  });
}
