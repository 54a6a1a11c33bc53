/**
 * The three overviews of the report area (spec business §2 /overview, §9 expiry windows and
 * offline statistic): devices by status, activation, expiry and silence; driving over a
 * range (rankings, per day) from the day summaries; alerts over a range by type and day.
 */
import type { Session } from "../../lib/http/env.ts";
import type { AlertHistory } from "../alerts/types.ts";
import {
  activationState,
  type Device,
  type DeviceStatus,
  effectiveExpiry,
} from "../devices/model.ts";
import type { DeviceService, Row as DeviceRow } from "../devices/service.ts";
import type { MotionReader } from "../motion/types.ts";
import { mapLimit, READ_CONCURRENCY } from "./merge.ts";
import {
  type AlertOverview,
  type DeviceOverview,
  type MovingOverview,
  type MovingRank,
  OVERVIEW_RANGE_DAYS,
} from "./model.ts";
import { checkRange, type TimeRange } from "./range.ts";
import { km } from "./rows.ts";
import type { RangeOverviewBody } from "./schemas.ts";

const DAY_MS = 86_400_000;
const RANKED = 10;
const OFFLINE: ReadonlySet<DeviceStatus> = new Set(["offline", "sleeping", "poweredOff"]);

export interface OverviewDeps {
  devices: Pick<DeviceService, "select" | "visibleDevices">;
  motion: MotionReader;
  alerts: AlertHistory;
}

export class ReportOverviews {
  constructor(private readonly d: OverviewDeps) {}

  async device(session: Session, userId?: string, now = Date.now()): Promise<DeviceOverview> {
    const rows = await this.d.devices.select(session, { userId });
    const o: DeviceOverview = {
      total: rows.length,
      status: {},
      online: 0,
      offline: 0,
      inactive: 0,
      activation: {},
      expiry: { within7: 0, within30: 0, within60: 0, expired: 0 },
      offlineFor: { under2Days: 0, days2to7: 0, over7Days: 0 },
    };
    for (const row of rows) countDevice(o, row, now);
    return o;
  }

  async moving(session: Session, body: RangeOverviewBody): Promise<MovingOverview> {
    const { devices, range } = await this.scope(session, body);
    const perDay = emptyDays(range, { distance: 0, drivingTime: 0, trips: 0, devices: 0 });
    const ranks = await mapLimit(devices, READ_CONCURRENCY, async (d): Promise<MovingRank> => {
      const r: MovingRank = {
        imei: d.imei,
        deviceName: d.deviceName,
        distance: 0,
        drivingTime: 0,
        trips: 0,
      };
      for (const day of await this.d.motion.days(d.imei, range.from, range.to)) {
        const bucket = perDay.get(day.date);
        r.distance += day.distance;
        r.drivingTime += day.drivingSeconds;
        r.trips += day.trips;
        if (!bucket) continue;
        bucket.distance += day.distance;
        bucket.drivingTime += day.drivingSeconds;
        bucket.trips += day.trips;
        if (day.distance > 0 || day.trips > 0) bucket.devices++;
      }
      return { ...r, distance: km(r.distance), drivingTime: Math.round(r.drivingTime) };
    });
    const top = (key: "distance" | "drivingTime") =>
      ranks.filter((r) => r[key] > 0).sort((a, b) => b[key] - a[key]).slice(0, RANKED);
    return {
      devices: devices.length,
      distance: km(ranks.reduce((n, r) => n + r.distance, 0)),
      drivingTime: ranks.reduce((n, r) => n + r.drivingTime, 0),
      trips: ranks.reduce((n, r) => n + r.trips, 0),
      distanceRanking: top("distance"),
      drivingTimeRanking: top("drivingTime"),
      perDay: [...perDay].map(([date, b]) => ({
        date,
        ...b,
        distance: km(b.distance),
        drivingTime: Math.round(b.drivingTime),
      })),
    };
  }

  async alert(session: Session, body: RangeOverviewBody): Promise<AlertOverview> {
    const { devices, range } = await this.scope(session, body);
    const perDay = emptyDays(range, () => ({ total: 0, byType: {} as Record<string, number> }));
    const byType = new Map<string, number>();
    const lists = await mapLimit(
      devices,
      READ_CONCURRENCY,
      (d) => this.d.alerts.range(d.imei, range.from, range.to),
    );
    let total = 0;
    for (const list of lists) {
      for (const a of list) {
        total++;
        byType.set(a.type, (byType.get(a.type) ?? 0) + 1);
        const day = perDay.get(new Date(a.time).toISOString().slice(0, 10));
        if (!day) continue;
        day.total++;
        day.byType[a.type] = (day.byType[a.type] ?? 0) + 1;
      }
    }
    return {
      total,
      byType: [...byType].sort((a, b) => b[1] - a[1]).map(([alertType, count]) => ({
        alertType,
        count,
      })),
      perDay: [...perDay].map(([date, b]) => ({ date, ...b })),
    };
  }

  /** The named devices (refused whole when one is not the caller's) or the whole tree. */
  private async scope(session: Session, body: RangeOverviewBody) {
    const range = checkRange(body.startTime, body.endTime, OVERVIEW_RANGE_DAYS);
    const devices: Device[] = body.imeis
      ? await this.d.devices.visibleDevices(session, body.imeis)
      : (await this.d.devices.select(session, {})).map((r) => r.d);
    return { devices, range };
  }
}

function countDevice(o: DeviceOverview, { d, state, status }: DeviceRow, now: number): void {
  o.status[status] = (o.status[status] ?? 0) + 1;
  if (status === "inactive") o.inactive++;
  else if (OFFLINE.has(status)) o.offline++;
  else o.online++;
  const activation = activationState(d, now);
  o.activation[activation] = (o.activation[activation] ?? 0) + 1;
  const exp = effectiveExpiry(d);
  if (exp) {
    const left = Date.parse(exp.length === 10 ? `${exp}T23:59:59Z` : exp) - now;
    if (left < 0) o.expiry.expired++;
    else {
      if (left <= 7 * DAY_MS) o.expiry.within7++;
      if (left <= 30 * DAY_MS) o.expiry.within30++;
      if (left <= 60 * DAY_MS) o.expiry.within60++;
    }
  }
  if (OFFLINE.has(status) && state?.hbTime) {
    const silent = now - state.hbTime;
    if (silent < 2 * DAY_MS) o.offlineFor.under2Days++;
    else if (silent <= 7 * DAY_MS) o.offlineFor.days2to7++;
    else o.offlineFor.over7Days++;
  }
}

/** Every UTC day the range touches, in order, each with its own fresh bucket. */
function emptyDays<B>(range: TimeRange, fresh: B | (() => B)): Map<string, B> {
  const days = new Map<string, B>();
  const make = () => typeof fresh === "function" ? (fresh as () => B)() : { ...fresh } as B;
  for (let t = Math.floor(range.from / DAY_MS) * DAY_MS; t <= range.to; t += DAY_MS) {
    days.set(new Date(t).toISOString().slice(0, 10), make());
  }
  return days;
}
