/**
 * The report API: `POST /v3/new/report/{name}` for every report of REPORT_NAMES and
 * `POST /v3/new/report/overview/{device|moving|alert}`. All need "viewReports"
 * (viewReportFlag; virtual accounts by their master's flag).
 */
import type { z } from "zod";
import type { ApiRegistry } from "../../lib/http/api.ts";
import { REPORT_NAMES, REPORT_RANGE_DAYS, type ReportName } from "./model.ts";
import type { ReportOverviews } from "./overview.ts";
import {
  type AnyReportBody,
  deviceOverviewBody,
  rangeOverviewBody,
  REPORT_BODIES,
} from "./schemas.ts";
import type { ReportService } from "./service.ts";
import { SENSOR_SUMMARIES } from "./sensor_summaries.ts";

/** The services these routes use (the composition root passes them). */
export interface ReportRouteDeps {
  reports: ReportService;
  reportOverviews: ReportOverviews;
}

const SUMMARIES: Record<ReportName, string> = {
  trips:
    "Trips: start and end (time, place, address), distance (km), duration (s), average and top speed (km/h), fuel used, harsh acceleration and braking counts",
  parking: "Parking (stopped with ignition off or unknown): interval, place and address",
  idling: "Idling (stopped with ignition on): interval, place and address",
  mileage:
    'Mileage: view "day" one row per device and UTC day (distance, driving time, top speed); view "segment" one row per trip',
  overspeed:
    "Overspeed streaks above speedLimit (default: the device's overspeed threshold, else 100 km/h; another limit is computed from the points, at most 7 days per query)",
  ignition: "Ignition on and off intervals with their place",
  online: "Online intervals",
  offline: "Offline intervals",
  geoRegion: "Geofence visits: fence, enter, exit (null while inside), duration",
  alertDetails: "Alerts of the devices, filtered by alertType and read (all, 0 read, -1 unread)",
  alertStatistics: "Alert counts per device and type",
  trackDetails: "The stored points, filtered by positioning (all, gps, lbs, wifi, beacon)",
  vehicleStatus:
    "Per device: current status and last position, the range's distance, driving, idling and parking time, top speed",
  ...SENSOR_SUMMARIES,
};

export function registerReportRoutes(api: ApiRegistry, s: ReportRouteDeps) {
  for (const name of REPORT_NAMES) registerReport(api, s, name);
  api.add({
    method: "post",
    path: "/v3/new/report/overview/device",
    need: "viewReports",
    tag: "Reports",
    summary:
      "Devices of the caller's tree (or of userId's subtree) by status, activation, expiry within 7/30/60 days and days offline",
    body: deviceOverviewBody,
    handler: ({ body, c }) => s.reportOverviews.device(c.var.session, body.userId),
  });
  api.add({
    method: "post",
    path: "/v3/new/report/overview/moving",
    need: "viewReports",
    tag: "Reports",
    summary:
      "Driving over a range (at most 31 days): totals, distance and driving-time rankings, per UTC day; imeis left out = the whole tree",
    body: rangeOverviewBody,
    handler: ({ body, c }) => s.reportOverviews.moving(c.var.session, body),
  });
  api.add({
    method: "post",
    path: "/v3/new/report/overview/alert",
    need: "viewReports",
    tag: "Reports",
    summary:
      "Alerts over a range (at most 31 days) by type and per UTC day; imeis left out = the whole tree",
    body: rangeOverviewBody,
    handler: ({ body, c }) => s.reportOverviews.alert(c.var.session, body),
  });
}

function registerReport(api: ApiRegistry, s: ReportRouteDeps, name: ReportName) {
  api.add({
    method: "post",
    path: `/v3/new/report/${name}`,
    need: "viewReports",
    tag: "Reports",
    summary: `${SUMMARIES[name]}. imeis 1-200 (one outside the caller's tree refuses all), ` +
      `range at most ${
        REPORT_RANGE_DAYS[name]
      } days; answers {total, list}: km, km/h, s, ISO-8601 UTC`,
    body: REPORT_BODIES[name] as z.ZodType<AnyReportBody>,
    handler: ({ body, c }) => s.reports.run(c.var.session, c.var.lang, name, body),
  });
}
