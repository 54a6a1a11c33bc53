import { z } from "zod";
import type { ApiRegistry } from "../../lib/http/api.ts";
import * as S from "./schemas.ts";
import { broadcastBody } from "./broadcast.ts";
import { ALERT_TYPES, DEVICE_ALARM_TYPES, ENGINE_TYPES } from "./types.ts";
import type { AccessGuard } from "../accounts/access.ts";
import type { RuleCommands } from "../commands/rule_commands.ts";
import type { DeviceService } from "../devices/service.ts";
import type { WebhookSender } from "../notifications/webhook.ts";
import type { AutoBroadcast } from "./broadcast.ts";
import type { AlertDelivery } from "./delivery.ts";
import type { AlertService } from "./service.ts";
import type { AlertSettingsStore } from "./settings.ts";
import { AlertPopups } from "./popups.ts";
import { BroadcastRules } from "./broadcast_rules.ts";

/** The services these routes use (the composition root passes them). */
export interface AlertRouteDeps {
  access: AccessGuard;
  alertCenter: AlertService;
  alertDelivery: AlertDelivery;
  alertSettings: AlertSettingsStore;
  autoBroadcast: AutoBroadcast;
  devices: DeviceService;
  ruleCommands: RuleCommands;
  webhooks: WebhookSender;
}

const optionalUser = { userId: z.string().max(64).optional() };

export function registerAlertRoutes(api: ApiRegistry, s: AlertRouteDeps) {
  registerAlertListRoutes(api, s);
  registerAlertSettingRoutes(api, s);
  registerAlertDeliveryRoutes(api, s);
  registerBroadcastRoutes(api, s);
}

/** The alert centre list: read, mark and process alerts. */
function registerAlertListRoutes(api: ApiRegistry, s: AlertRouteDeps) {
  const tag = "Alerts";
  const svc = s.alertCenter;
  api.add({
    method: "post",
    path: "/v3/new/alarm/list",
    need: "read",
    tag,
    summary: "Alert centre: alerts by type, device, time, read flag (all/0/-1) and processing",
    body: S.alertListBody,
    handler: ({ body, c }) => svc.list(c.var.session, body),
  });
  api.add({
    method: "post",
    path: "/v3/new/alarm/process",
    need: "editData",
    tag,
    summary: "Process an alert with a handler (≤ 50) and handling content (≤ 500)",
    body: S.processBody,
    handler: ({ body, c }) => svc.process(c.var.session, body, body.handler, body.content),
  });
  api.add({
    method: "post",
    path: "/v3/new/alarm/mark",
    need: "self",
    tag,
    summary: "Mark alerts read (0) or unread (-1)",
    body: S.markBody,
    handler: ({ body, c }) => svc.mark(c.var.session, body.alerts, body.read),
  });
  api.add({
    method: "post",
    path: "/v3/new/alarm/markAllRead",
    need: "self",
    tag,
    summary: "Mark every unread alert matching the filter read",
    body: S.alertListBody,
    handler: ({ body, c }) => svc.markAllRead(c.var.session, body),
  });
}

/** Alert settings: types, account settings, alert mail addresses and device thresholds. */
function registerAlertSettingRoutes(api: ApiRegistry, s: AlertRouteDeps) {
  const tag = "Alerts";
  const svc = s.alertCenter;
  api.add({
    method: "get",
    path: "/v3/new/alarm/types",
    need: "read",
    tag,
    summary: "Alert types: engine alerts and device alarms",
    handler: () => ({ all: ALERT_TYPES, engine: ENGINE_TYPES, device: DEVICE_ALARM_TYPES }),
  });
  api.add({
    method: "post",
    path: "/v3/new/alarm/settings/get",
    need: "read",
    tag,
    summary: "Push settings of an account: subscribed types, pop-up, sound, silence, mail, webhook",
    body: z.object(optionalUser).strict(),
    handler: ({ body, c }) => svc.accountSettings(c.var.session, body.userId),
  });
  api.add({
    method: "post",
    path: "/v3/new/alarm/settings/save",
    need: "editData",
    tag,
    summary: "Save push settings; a new mail address must be verified first",
    body: S.accountSettingsBody,
    handler: ({ body, c }) => svc.saveAccountSettings(c.var.session, body),
  });
  api.add({
    method: "post",
    path: "/v3/new/alarm/email/sendCode",
    need: "editData",
    tag,
    summary: "Mail a verification code to an alert address (once a minute, valid 10 minutes)",
    body: z.object({ email: z.email().max(100), ...optionalUser }).strict(),
    handler: ({ body, c }) => svc.sendEmailCode(c.var.session, body.email, body.userId),
  });
  api.add({
    method: "post",
    path: "/v3/new/alarm/email/verify",
    need: "editData",
    tag,
    summary: "Verify an alert address with the mailed code",
    body: z.object({
      email: z.email().max(100),
      code: z.string().regex(/^\d{6}$/, "validation.codeForm"),
      ...optionalUser,
    }).strict(),
    handler: ({ body, c }) =>
      svc.verifyEmailCode(c.var.session, body.email, body.code, body.userId),
  });
  api.add({
    method: "post",
    path: "/v3/new/alarm/device/get",
    need: "read",
    tag,
    summary: "Alarm thresholds of a device (null when none are set)",
    body: z.object({ imei: z.string().regex(/^\d{15}$/, "validation.imeiForm") }).strict(),
    handler: ({ body, c }) => svc.deviceSettings(c.var.session, body.imei),
  });
  api.add({
    method: "post",
    path: "/v3/new/alarm/device/save",
    need: "editData",
    tag,
    summary: "Save a device's alarm thresholds (spec §5 alarm thresholds)",
    body: S.deviceSettingsBody,
    handler: ({ body, c }) => svc.saveDeviceSettings(c.var.session, body),
  });
}

/** Webhook logs and popups. */
function registerAlertDeliveryRoutes(api: ApiRegistry, s: AlertRouteDeps) {
  const tag = "Alerts";
  const svc = s.alertCenter;
  const popups = new AlertPopups(s.access, s.alertSettings, s.alertDelivery);
  api.add({
    method: "post",
    path: "/v3/new/alarm/webhook/logs",
    need: "read",
    tag,
    summary: "The latest webhook deliveries of an account with every attempt",
    body: z.object(optionalUser).strict(),
    handler: async ({ body, c }) => {
      const { userId } = await svc.accountSettings(c.var.session, body.userId);
      return await s.webhooks.logs(userId);
    },
  });
  api.add({
    method: "get",
    path: "/v3/new/alarm/popups",
    need: "read",
    tag,
    summary:
      "Pushed alerts for the console pop-up after a sequence number (types the caller subscribed); " +
      "without `after` only the current sequence number",
    query: z.object({ after: z.coerce.number().int().min(0).optional() }).strict(),
    handler: async ({ query, c }) => {
      const found = await popups.since(c.var.session, query.after);
      // The subtree path and the feed's sequence number stay on the server.
      return { ...found, list: found.list.map(({ path: _p, seq: _s, ...a }) => a) };
    },
  });
}

/** Broadcast messages. */
function registerBroadcastRoutes(api: ApiRegistry, s: AlertRouteDeps) {
  const tag = "Alerts";
  const rules = new BroadcastRules(s);
  api.add({
    method: "post",
    path: "/v3/new/alarm/broadcast/list",
    need: "read",
    tag,
    summary: "Auto broadcast rules of an account",
    body: z.object(optionalUser).strict(),
    handler: ({ body, c }) => rules.list(c.var.session, body.userId),
  });
  api.add({
    method: "post",
    path: "/v3/new/alarm/broadcast/save",
    need: "editData",
    tag,
    summary:
      "Create or edit an auto broadcast rule (at most 20 per account); its text is a command: " +
      "sending rights, and `password` (the login password) for a protected instruction",
    body: z.object({
      ...optionalUser,
      rule: broadcastBody,
      /** The login password, when the text is an instruction that needs it (never stored). */
      password: z.string().max(100).optional(),
    }).strict(),
    handler: ({ body, c }) => rules.save(c.var.session, body),
  });
  api.add({
    method: "post",
    path: "/v3/new/alarm/broadcast/delete",
    need: "editData",
    tag,
    summary: "Delete an auto broadcast rule",
    body: z.object({ ...optionalUser, id: z.string().min(1).max(64) }).strict(),
    handler: async ({ body, c }) => {
      await rules.remove(c.var.session, body.id, body.userId);
    },
  });
}
