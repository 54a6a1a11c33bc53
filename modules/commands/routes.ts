import { z } from "zod";
import { BizError } from "../../lib/errors.ts";
import type { ApiRegistry } from "../../lib/http/api.ts";
import type { Session } from "../../lib/http/env.ts";
import type { Services } from "../../lib/services.ts";
import { pageFields } from "../accounts/schemas.ts";

const imei = z.string().regex(/^\d{15}$/, "validation.imeiForm");

export function registerCommandRoutes(api: ApiRegistry, s: Services) {
  const tag = "Commands";
  /** The account's command-sending flag, and for virtual users their "send instructions" scope. */
  const assertMaySend = async (session: Session) => {
    const { self, owner } = await s.access.caller(session);
    if (owner.permissions.sendCommandFlag !== 1) throw new BizError("permissionDenied");
    if (self.virtual && self.virtual.scope.instructionsFlag !== 1) {
      throw new BizError("permissionDenied");
    }
    return self;
  };

  api.add({
    method: "post",
    path: "/v3/new/command/send",
    tag,
    summary:
      "Send a command now (online) or when the device next connects (offline, one pending per device)",
    body: z.object({
      imei,
      content: z.string().trim().min(1).max(500),
      sendType: z.enum(["online", "offline"]),
      /** Confirms replacing the device's pending offline command. */
      replace: z.boolean().default(false),
    }).strict(),
    handler: async ({ body, c }) => {
      const self = await assertMaySend(c.var.session);
      const device = await s.devices.visibleDevice(c.var.session, body.imei);
      const record = await s.commands.send(
        { device, content: body.content, sendType: body.sendType, replace: body.replace },
        { id: self.id, account: self.account },
      );
      return { id: record.id, status: record.status };
    },
  });
  api.add({
    method: "post",
    path: "/v3/new/command/list",
    tag,
    summary: "A device's commands, newest first, with status and the device's reply",
    body: z.object({ imei, ...pageFields }).strict(),
    handler: async ({ body, c }) => {
      await s.devices.visibleDevice(c.var.session, body.imei);
      const page = await s.commandStore.listForDevice(body.imei, body.pageNum, body.pageSize);
      return {
        total: page.total,
        list: page.list.map((r) => ({
          ...r,
          createdAt: new Date(r.createdAt).toISOString(),
          sentAt: r.sentAt && new Date(r.sentAt).toISOString(),
          repliedAt: r.repliedAt && new Date(r.repliedAt).toISOString(),
        })),
      };
    },
  });
  api.add({
    method: "post",
    path: "/v3/new/command/cancel",
    tag,
    summary: "Cancel a device's pending offline command",
    body: z.object({ imei }).strict(),
    handler: async ({ body, c }) => {
      await assertMaySend(c.var.session);
      await s.devices.visibleDevice(c.var.session, body.imei);
      const cancelled = await s.commands.cancel(body.imei);
      if (!cancelled) throw new BizError("dataNotExists");
      return { id: cancelled.id, status: cancelled.status };
    },
  });
}
