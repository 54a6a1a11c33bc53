import type { TFunction } from "i18next";
import {
  CHART_DEVICES,
  type ProbeSummary,
  SENSOR_NEED,
  type SensorAnswer,
  type SensorReportName,
} from "../../../modules/reports/sensor_model.ts";
import type { ReportColumn } from "../../../modules/reports/model.ts";
import type { ReportState } from "../report_state.ts";
import { SensorChart } from "./SensorChart.tsx";

/**
 * What a sensor report shows beside its table: which chosen devices report no such sensor
 * (never a table of zeros), the first page's chart, and the temperature summary per probe.
 */
export function SensorParts({ s }: { s: ReportState }) {
  const answer = s.answer.value as SensorAnswer | null;
  if (!answer || !s.query.value) return null;
  const { t } = s;
  const need = SENSOR_NEED[s.report as SensorReportName];
  const names = s.names.value;
  const unsupported = answer.unsupported ?? [];
  return (
    <>
      {unsupported.length > 0 && (
        <p class="rp-note rp-unsupported" role="status" data-testid="sensor-unsupported">
          {t(`reports.sensor.none.${need ?? "sensor"}`, {
            devices: unsupported.map((i) =>
              names[i] || i
            ).join(", "),
            count: unsupported.length,
          })}
        </p>
      )}
      {answer.chart && answer.total > 0 && (
        <>
          <SensorChart
            chart={answer.chart}
            t={t}
            fmt={s.fmt}
            units={s.units}
            title={t("reports.sensor.chartOf", {
              name: t(`reports.columns.${answer.chart.lines[0]?.key ?? "value"}`),
            })}
          />
          {new Set(answer.chart.lines.map((l) => l.imei)).size >= CHART_DEVICES && (
            <p class="rp-note">{t("reports.sensor.charted", { count: CHART_DEVICES })}</p>
          )}
        </>
      )}
      {answer.summary && answer.summary.length > 0 && (
        <ProbeTable t={t} s={s} summary={answer.summary} />
      )}
    </>
  );
}

const TEMP: ReportColumn = { key: "temperature", kind: "temperature" };
const HUM: ReportColumn = { key: "humidity", kind: "percent" };

/** Per probe: min, max, average, thresholds and the intervals out of range. */
function ProbeTable({ t, s, summary }: { t: TFunction; s: ReportState; summary: ProbeSummary[] }) {
  const cell = (col: ReportColumn, v: number | null | undefined) => s.fmt.cell(col, v ?? null);
  const tu = s.fmt.unit("temperature");
  return (
    <section class="panel rp-probes" data-testid="probe-summary">
      <h3 class="rp-chart-title">{t("reports.sensor.summary")}</h3>
      <div class="rp-probe-grid">
        {summary.map((p) => (
          <article key={`${p.imei}:${p.probe}`} class="rp-probe" data-imei={p.imei}>
            <header>
              <b>{p.deviceName || p.imei}</b>
              <span class="muted">{t("reports.sensor.probe", { probe: p.probe })}</span>
            </header>
            <dl>
              {p.temperature && (
                <>
                  <dt>{t("reports.columns.temperature")} ({tu})</dt>
                  <dd>
                    <span>{t("reports.sensor.min")} {cell(TEMP, p.temperature.min)}</span>
                    <span>{t("reports.sensor.max")} {cell(TEMP, p.temperature.max)}</span>
                    <span>{t("reports.sensor.avg")} {cell(TEMP, p.temperature.avg)}</span>
                  </dd>
                </>
              )}
              {p.humidity && (
                <>
                  <dt>{t("reports.columns.humidity")} (%)</dt>
                  <dd>
                    <span>{t("reports.sensor.min")} {cell(HUM, p.humidity.min)}</span>
                    <span>{t("reports.sensor.max")} {cell(HUM, p.humidity.max)}</span>
                    <span>{t("reports.sensor.avg")} {cell(HUM, p.humidity.avg)}</span>
                  </dd>
                </>
              )}
              <dt>{t("reports.sensor.limits")}</dt>
              <dd>
                {p.limits.min === null && p.limits.max === null
                  ? t("reports.sensor.noLimits")
                  : `${cell(TEMP, p.limits.min)} – ${cell(TEMP, p.limits.max)} ${tu}`}
              </dd>
            </dl>
            {p.outOfRange.length
              ? (
                <ul class="rp-out" data-testid="out-of-range">
                  {p.outOfRange.map((o, i) => (
                    <li key={i} class={`rp-out-${o.band}`}>
                      <b>
                        {t(`reports.sensor.${o.band}`, {
                          limit: `${
                            cell(TEMP, o.band === "high" ? p.limits.max : p.limits.min)
                          } ${tu}`,
                        })}
                      </b>
                      <span>{s.fmt.time(o.start)} → {s.fmt.time(o.end)}</span>
                      <span class="muted">
                        {s.fmt.cell({ key: "duration", kind: "duration" }, o.duration)} ·{" "}
                        {t("reports.sensor.extreme")} {cell(TEMP, o.extreme)} {tu}
                      </span>
                    </li>
                  ))}
                </ul>
              )
              : (p.limits.min !== null || p.limits.max !== null) && (
                <p class="muted rp-out-none">{t("reports.sensor.noOutOfRange")}</p>
              )}
          </article>
        ))}
      </div>
    </section>
  );
}
