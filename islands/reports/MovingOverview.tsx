import { island } from "../../lib/islands/island.tsx";
import { type Lang, translator } from "../../lib/i18n/i18n.ts";
import type { MovingOverview as Data, MovingRank } from "../../modules/reports/model.ts";
import { Columns, HBars, PALETTE } from "../../components/reports/charts.tsx";
import {
  Card,
  Kpi,
  OverviewRange,
  OverviewStatus,
} from "../../components/reports/OverviewParts.tsx";
import { cellFormat, formatDuration, type UserUnits } from "../../components/reports/format.ts";
import { reportHref, useRangeOverview } from "../../components/reports/useOverview.ts";
import { convertDistance, distanceUnit } from "../../modules/monitor/units.ts";

/** /movingOverview: distance and driving time over the range, per day and per device. */
function MovingOverview({ lang, units }: { lang: Lang; units: UserUnits }) {
  const t = translator(lang);
  const { range, setRange, data, error } = useRangeOverview<Data>("moving", units.timeZone);
  const du = distanceUnit(units.distance);
  const fmt = cellFormat(units, t);
  const dist = (km: number) => `${fmt.cell({ key: "d", kind: "distance" }, km)} ${du}`;
  const hours = (s: number) => t("reports.units.hours", { h: Math.round((s / 3600) * 10) / 10 });
  const ranking = (list: MovingRank[], key: "distance" | "drivingTime") =>
    list.map((r) => ({
      key: r.imei,
      label: r.deviceName || r.imei,
      value: r[key],
      text: key === "distance" ? dist(r.distance) : formatDuration(r.drivingTime, t),
      href: reportHref("trips", r.imei, range),
    }));
  return (
    <div class="rp-overview" data-testid="moving-overview">
      <OverviewRange t={t} tz={units.timeZone} range={range} onChange={setRange} />
      {!data ? <OverviewStatus t={t} error={error} /> : (
        <>
          <div class="rp-kpis">
            <Kpi label={t("reports.overview.devicesLabel")} value={data.devices} />
            <Kpi label={t("reports.overview.distance")} value={dist(data.distance)} tone="ok" />
            <Kpi
              label={t("reports.overview.drivingTime")}
              value={formatDuration(data.drivingTime, t)}
            />
            <Kpi label={t("reports.overview.trips")} value={data.trips} />
          </div>
          <div class="rp-cards">
            <Card title={t("reports.overview.distancePerDay", { unit: du })}>
              <Columns
                caption={t("reports.overview.distancePerDay", { unit: du })}
                empty={t("reports.overview.none")}
                days={data.perDay.map((d) => d.date)}
                series={[{
                  key: "distance",
                  label: t("reports.overview.distance"),
                  color: PALETTE[0],
                  values: data.perDay.map((d) => convertDistance(d.distance, du)),
                }]}
                format={(v) => String(Math.round(v * 10) / 10)}
              />
            </Card>
            <Card title={t("reports.overview.tripsPerDay")}>
              <Columns
                caption={t("reports.overview.tripsPerDay")}
                empty={t("reports.overview.none")}
                days={data.perDay.map((d) => d.date)}
                series={[{
                  key: "trips",
                  label: t("reports.overview.trips"),
                  color: PALETTE[2],
                  values: data.perDay.map((d) => d.trips),
                }]}
                format={(v) => String(Math.round(v * 10) / 10)}
              />
            </Card>
            <Card title={t("reports.overview.distanceRanking")}>
              <HBars
                empty={t("reports.overview.noDriving")}
                bars={ranking(data.distanceRanking, "distance")}
              />
            </Card>
            <Card title={t("reports.overview.drivingTimeRanking")}>
              <HBars
                empty={t("reports.overview.noDriving")}
                color={PALETTE[1]}
                bars={ranking(data.drivingTimeRanking, "drivingTime")}
              />
              <p class="field-hint">{hours(data.drivingTime)}</p>
            </Card>
          </div>
        </>
      )}
    </div>
  );
}

export default island("reports/MovingOverview", MovingOverview);
