import { normalizeLang, translator } from "../../lib/i18n/i18n.ts";
import type { PushedAlert } from "./delivery.ts";

/** Subject and body of an alert mail in the owner's language. */
export function alertMail(a: PushedAlert, language: string): { subject: string; text: string } {
  const t = translator(normalizeLang(language));
  const type = t(`alerts.type.${a.type}`);
  const subject = t("alerts.mail.subject", { type, device: a.deviceName });
  const lines = [
    t("alerts.mail.device", { device: a.deviceName, imei: a.imei }),
    t("alerts.mail.type", { type }),
    ...(a.driverName ? [t("alerts.mail.driver", { driver: a.driverName })] : []),
    t("alerts.mail.time", { time: new Date(a.time).toISOString().replace("T", " ").slice(0, 19) }),
  ];
  if (a.fenceName) lines.push(t("alerts.mail.fence", { fence: a.fenceName }));
  if (a.detail?.route) lines.push(t("alerts.mail.route", { route: a.detail.route }));
  if (a.lat !== null && a.lng !== null) {
    lines.push(t("alerts.mail.position", { lat: a.lat.toFixed(6), lng: a.lng.toFixed(6) }));
  }
  if (a.address) lines.push(t("alerts.mail.address", { address: a.address }));
  return { subject, text: lines.join("\n") };
}
