/**
 * The report queries (spec business §5 "Reports and queries"): every report runs for the
 * caller's own devices only — one IMEI outside its tree refuses the whole query, the same way
 * whether the device exists or not — over a checked range, and answers one page of rows in
 * time order with the exact total.
 */
import type { Lang } from "../../lib/i18n/i18n.ts";
import type { Session } from "../../lib/http/env.ts";
import type { AccessGuard } from "../accounts/access.ts";
import type { DeviceService } from "../devices/service.ts";
import { alertDetailsReport, alertStatisticsReport } from "./alert_reports.ts";
import type { Page, ReportQuery, ReportSources } from "./context.ts";
import { mileageDaysReport } from "./mileage.ts";
import { REPORT_RANGE_DAYS, type ReportName } from "./model.ts";
import { overspeedReport } from "./overspeed.ts";
import { checkRange } from "./range.ts";
import { SENSOR_REPORTS } from "./sensor_reports.ts";
import type { AnyReportBody, ReportBody } from "./schemas.ts";
import {
  connectivityReport,
  geoRegionReport,
  ignitionReport,
  mileageSegmentsReport,
  stopsReport,
  tripsReport,
} from "./segment_reports.ts";
import { trackDetailsReport } from "./track_details.ts";
import { vehicleStatusReport } from "./vehicle_status.ts";

export interface ReportServiceDeps extends ReportSources {
  devices: Pick<DeviceService, "visibleDevices">;
  access: Pick<AccessGuard, "caller">;
}

type Runner = (s: ReportSources, q: ReportQuery, body: AnyReportBody) => Promise<Page>;

/** Each report by name; the body is the one its schema (REPORT_BODIES) parsed. */
const REPORTS: {
  [N in ReportName]: (s: ReportSources, q: ReportQuery, b: ReportBody<N>) => Promise<Page>;
} = {
  trips: (s, q) => tripsReport(s, q),
  parking: (s, q) => stopsReport(s, q, "parking"),
  idling: (s, q) => stopsReport(s, q, "idling"),
  mileage: (s, q, b) =>
    b.view === "segment" ? mileageSegmentsReport(s, q) : mileageDaysReport(s, q),
  overspeed: (s, q, b) => overspeedReport(s, q, b.speedLimit),
  ignition: (s, q) => ignitionReport(s, q),
  online: (s, q) => connectivityReport(s, q, true),
  offline: (s, q) => connectivityReport(s, q, false),
  geoRegion: (s, q) => geoRegionReport(s, q),
  alertDetails: (s, q, b) => alertDetailsReport(s, q, b),
  alertStatistics: (s, q, b) => alertStatisticsReport(s, q, b),
  trackDetails: (s, q, b) => trackDetailsReport(s, q, b.positioning),
  vehicleStatus: (s, q) => vehicleStatusReport(s, q),
  ...SENSOR_REPORTS,
};

export class ReportService {
  constructor(private readonly d: ReportServiceDeps) {}

  /**
   * One page of a report for the caller. `page` overrides the body's paging (the export
   * reads its own pages).
   */
  async run(
    session: Session,
    lang: Lang,
    name: ReportName,
    body: AnyReportBody,
    page: { pageNum: number; pageSize: number } = body,
  ): Promise<Page> {
    const devices = await this.d.devices.visibleDevices(session, body.imeis);
    const now = Date.now();
    const { from, to } = checkRange(body.startTime, body.endTime, REPORT_RANGE_DAYS[name], now);
    const { owner } = await this.d.access.caller(session);
    const q: ReportQuery = {
      devices,
      from,
      to,
      skip: (page.pageNum - 1) * page.pageSize,
      take: page.pageSize,
      lang,
      viewerId: owner.id,
      now,
    };
    return await (REPORTS[name] as Runner)(this.d, q, body);
  }
}
