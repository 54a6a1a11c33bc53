import type { TFunction } from "i18next";
import { alarmLabel } from "../video/video_data.ts";

/** Local date and time, "2026-11-21 13:05:09". */
export function formatTime(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${
    p(d.getMinutes())
  }:${p(d.getSeconds())}`;
}

/** One line about what happened: the fence, the limit, the figure. */
export function alertDetail(
  t: TFunction,
  a: {
    type: string;
    fenceName?: string;
    speed: number | null;
    detail?: Record<string, string | number>;
  },
): string {
  const d = a.detail ?? {};
  if (a.fenceName) return t("alerts.detail.fence", { fence: a.fenceName });
  if (a.type === "overspeed") {
    return t("alerts.detail.overspeed", { speed: a.speed ?? "-", limit: d.limit });
  }
  if (a.type === "temperatureHigh" || a.type === "temperatureLow") {
    return t("alerts.detail.temperature", { value: d.temperature, limit: d.limit });
  }
  if (a.type === "offline" || a.type === "stay") {
    return t("alerts.detail.minutes", { n: d.minutes });
  }
  if (a.type === "mileage" || a.type === "maintenance") return t("alerts.detail.km", { n: d.km });
  if (a.type === "accOnDuration") return t("alerts.detail.hours", { n: d.hours });
  if (a.type === "nightDriving") return t("alerts.detail.night", { start: d.start, end: d.end });
  if (a.type === "routeDeviation" || a.type === "routeReturn") {
    return t(`alerts.detail.${a.type}`, { route: d.route, metres: d.metres });
  }
  // A dash cam's active-safety alarm ("adas:1"): what the camera saw, in words.
  if (typeof d.safety === "string") return alarmLabel(t, d.safety);
  return a.speed !== null ? t("alerts.detail.speed", { speed: a.speed }) : "-";
}
