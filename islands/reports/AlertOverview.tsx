import { island } from "../../lib/islands/island.tsx";
import { type Lang, translator } from "../../lib/i18n/i18n.ts";
import type { AlertOverview as Data } from "../../modules/reports/model.ts";
import { Columns, Donut, PALETTE } from "../../components/reports/charts.tsx";
import {
  Card,
  Kpi,
  OverviewRange,
  OverviewStatus,
} from "../../components/reports/OverviewParts.tsx";
import { useRangeOverview } from "../../components/reports/useOverview.ts";

/** Types drawn as their own series; the rest are summed as "other". */
const SERIES = 6;

/** /alertOverview: the range's alerts by type and by day. */
function AlertOverview({ lang, timeZone }: { lang: Lang; timeZone: string }) {
  const t = translator(lang);
  const { range, setRange, data, error } = useRangeOverview<Data>("alert", timeZone);
  const typeName = (k: string) =>
    k === "other" ? t("reports.overview.other") : t(`alerts.type.${k}`, { defaultValue: k });
  const top = data?.byType.slice(0, SERIES).map((b) => b.alertType) ?? [];
  const series = data
    ? [
      ...top.map((k, i) => ({
        key: k,
        label: typeName(k),
        color: PALETTE[i],
        values: data.perDay.map((d) => d.byType[k] ?? 0),
      })),
      ...(data.byType.length > SERIES
        ? [{
          key: "other",
          label: typeName("other"),
          color: PALETTE[7],
          values: data.perDay.map((d) =>
            Object.entries(d.byType).reduce((n, [k, v]) => (top.includes(k) ? n : n + v), 0)
          ),
        }]
        : []),
    ]
    : [];
  return (
    <div class="rp-overview" data-testid="alert-overview">
      <OverviewRange t={t} tz={timeZone} range={range} onChange={setRange} />
      {!data ? <OverviewStatus t={t} error={error} /> : (
        <>
          <div class="rp-kpis">
            <Kpi label={t("reports.overview.alerts")} value={data.total} tone="danger" />
            <Kpi label={t("reports.overview.alertTypes")} value={data.byType.length} />
            <Kpi
              label={t("reports.overview.perDay")}
              value={data.perDay.length
                ? Math.round((data.total / data.perDay.length) * 10) / 10
                : 0}
            />
            <Kpi
              label={t("reports.overview.topType")}
              value={data.byType[0] ? typeName(data.byType[0].alertType) : "—"}
            />
          </div>
          <div class="rp-cards">
            <Card title={t("reports.overview.alertsPerDay")}>
              <Columns
                caption={t("reports.overview.alertsPerDay")}
                empty={t("reports.overview.none")}
                days={data.perDay.map((d) => d.date)}
                series={series}
                format={(v) => String(Math.round(v))}
              />
            </Card>
            <Card title={t("reports.overview.byType")}>
              {data.total
                ? (
                  <Donut
                    caption={t("reports.overview.byType")}
                    total={data.total}
                    shares={data.byType.map((b, i) => ({
                      key: b.alertType,
                      label: typeName(b.alertType),
                      value: b.count,
                      color: PALETTE[i % PALETTE.length],
                    }))}
                  />
                )
                : <p class="rp-chart-empty">{t("reports.overview.noAlerts")}</p>}
              <p class="field-hint">
                <a href="/new/alertDetails">{t("reports.overview.toAlertDetails")}</a>
              </p>
            </Card>
          </div>
        </>
      )}
    </div>
  );
}

export default island("reports/AlertOverview", AlertOverview);
