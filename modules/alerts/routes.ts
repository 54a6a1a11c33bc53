import { z } from "zod";
import type { ApiRegistry } from "../../lib/http/api.ts";
import type { Services } from "../../lib/services.ts";
import type { PushedAlert } from "./delivery.ts";
import * as S from "./schemas.ts";
import { ALERT_TYPES, DEVICE_ALARM_TYPES, ENGINE_TYPES } from "./types.ts";

const optionalUser = { userId: z.string().max(64).optional() };
const HEARTBEAT_MS = 20_000;

export function registerAlertRoutes(api: ApiRegistry, s: Services) {
  const tag = "Alerts";
  const svc = s.alertCenter;
  api.add({
    method: "post",
    path: "/v3/new/alarm/list",
    tag,
    summary: "Alert centre: alerts by type, device, time, read flag (all/0/-1) and processing",
    body: S.alertListBody,
    handler: ({ body, c }) => svc.list(c.var.session, body),
  });
  api.add({
    method: "post",
    path: "/v3/new/alarm/process",
    tag,
    summary: "Process an alert with a handler (≤ 50) and handling content (≤ 500)",
    body: S.processBody,
    handler: ({ body, c }) => svc.process(c.var.session, body, body.handler, body.content),
  });
  api.add({
    method: "post",
    path: "/v3/new/alarm/mark",
    tag,
    summary: "Mark alerts read (0) or unread (-1)",
    body: S.markBody,
    handler: ({ body, c }) => svc.mark(c.var.session, body.alerts, body.read),
  });
  api.add({
    method: "post",
    path: "/v3/new/alarm/markAllRead",
    tag,
    summary: "Mark every unread alert matching the filter read",
    body: S.alertListBody,
    handler: ({ body, c }) => svc.markAllRead(c.var.session, body),
  });
  api.add({
    method: "get",
    path: "/v3/new/alarm/types",
    tag,
    summary: "Alert types: engine alerts and device alarms",
    handler: () => ({ all: ALERT_TYPES, engine: ENGINE_TYPES, device: DEVICE_ALARM_TYPES }),
  });
  api.add({
    method: "post",
    path: "/v3/new/alarm/settings/get",
    tag,
    summary: "Push settings of an account: subscribed types, pop-up, sound, silence, mail, webhook",
    body: z.object(optionalUser).strict(),
    handler: ({ body, c }) => svc.accountSettings(c.var.session, body.userId),
  });
  api.add({
    method: "post",
    path: "/v3/new/alarm/settings/save",
    tag,
    summary: "Save push settings; a new mail address must be verified first",
    body: S.accountSettingsBody,
    handler: ({ body, c }) => svc.saveAccountSettings(c.var.session, body),
  });
  api.add({
    method: "post",
    path: "/v3/new/alarm/email/sendCode",
    tag,
    summary: "Mail a verification code to an alert address (once a minute, valid 10 minutes)",
    body: z.object({ email: z.email().max(100), ...optionalUser }).strict(),
    handler: ({ body, c }) => svc.sendEmailCode(c.var.session, body.email, body.userId),
  });
  api.add({
    method: "post",
    path: "/v3/new/alarm/email/verify",
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
    tag,
    summary: "Alarm thresholds of a device (null when none are set)",
    body: z.object({ imei: z.string().regex(/^\d{15}$/, "validation.imeiForm") }).strict(),
    handler: ({ body, c }) => svc.deviceSettings(c.var.session, body.imei),
  });
  api.add({
    method: "post",
    path: "/v3/new/alarm/device/save",
    tag,
    summary: "Save a device's alarm thresholds (spec §5 alarm thresholds)",
    body: S.deviceSettingsBody,
    handler: ({ body, c }) => svc.saveDeviceSettings(c.var.session, body),
  });
  api.add({
    method: "post",
    path: "/v3/new/alarm/webhook/logs",
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
    path: "/v3/new/alarm/stream",
    tag,
    summary:
      "Server-sent events of pushed alerts for the console pop-up (types the caller subscribed)",
    handler: async ({ c }) => {
      const { owner } = await s.access.caller(c.var.session);
      const settings = () => s.alertSettings.account(owner.id);
      const encoder = new TextEncoder();
      let stop = () => {};
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          const write = (text: string) => {
            try {
              controller.enqueue(encoder.encode(text));
            } catch {
              stop();
            }
          };
          write(": open\n\n");
          const off = s.alertDelivery.onPopup((a: PushedAlert) => {
            const mine = settings();
            if (!a.path.includes(`,${owner.id},`) || !mine.popup) return;
            if (!mine.pushTypes.includes(a.type)) return;
            const { path: _p, ...alert } = a;
            void _p;
            write(`event: alert\ndata: ${JSON.stringify({ ...alert, sound: mine.sound })}\n\n`);
          });
          const beat = setInterval(() => write(": beat\n\n"), HEARTBEAT_MS);
          stop = () => {
            off();
            clearInterval(beat);
          };
          c.req.raw.signal.addEventListener("abort", () => stop());
        },
        cancel() {
          stop();
        },
      });
      return new Response(body, {
        headers: {
          "content-type": "text/event-stream",
          "cache-control": "no-store",
          "x-accel-buffering": "no",
        },
      });
    },
  });
}
