import type { TFunction } from "i18next";
import { useLayoutEffect, useRef, useState } from "react";
import { convertSpeed, speedUnit } from "../../../modules/monitor/units.ts";
import { formatTime } from "../../../modules/monitor/time.ts";
import type { ColumnKind } from "../../../modules/reports/model.ts";
import type { SensorChart as Chart } from "../../../modules/reports/sensor_model.ts";
import { niceStep, PALETTE } from "../charts.tsx";
import type { CellFormat, UserUnits } from "../format.ts";

/**
 * A time-series chart of a sensor report's first page (temperature, fuel level, battery, OBD):
 * one line per device and probe, the allowed temperature band shaded, refuels and drains
 * marked. SVG drawn at the box's width (axis text keeps its size on a phone), values in the
 * user's units.
 */

const LITRES_PER_GALLON = 3.785411784;
const H = 240, L = 48, R = 12, T = 14, B = 26;

/** An API value (°C, L, km/h…) in the user's unit, for plotting. */
export function plotValue(kind: ColumnKind, units: UserUnits): (v: number) => number {
  if (kind === "temperature" && /f$/i.test(units.temperature ?? "")) return (v) => v * 9 / 5 + 32;
  if (kind === "volume" && units.capacity === "GAL") return (v) => v / LITRES_PER_GALLON;
  if (kind === "speed") return (v) => convertSpeed(v, speedUnit(units.speed));
  return (v) => v;
}

function useWidth(fallback: number) {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(fallback);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const read = () => el.clientWidth > 0 && setWidth(el.clientWidth);
    read();
    const ro = new ResizeObserver(read);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  return { ref, width };
}

/** Round y bounds with four steps around the values (and the band). */
function yScale(values: number[]): { lo: number; hi: number; step: number } {
  let lo = Math.min(...values), hi = Math.max(...values);
  if (lo === hi) [lo, hi] = [lo - 1, hi + 1];
  const step = niceStep((hi - lo) / 4);
  lo = Math.floor(lo / step) * step;
  hi = Math.max(lo + 4 * step, Math.ceil(hi / step) * step);
  return { lo, hi, step: (hi - lo) / 4 };
}

/**
 * A line drawn in steps: a reading holds until the next one (the store keeps a value when it
 * changes, and an unchanged one every few minutes), so a jump shows when it was reported.
 */
function stepPoints(
  points: [number, number][],
  x: (ms: number) => number,
  y: (v: number) => number,
): string {
  const out: string[] = [];
  points.forEach(([ms, v], i) => {
    const px = x(ms).toFixed(1);
    if (i > 0) out.push(`${px},${y(points[i - 1][1]).toFixed(1)}`);
    out.push(`${px},${y(v).toFixed(1)}`);
  });
  return out.join(" ");
}

export function SensorChart({ chart, t, fmt, units, title }: {
  chart: Chart;
  t: TFunction;
  fmt: CellFormat;
  units: UserUnits;
  title: string;
}) {
  const { ref, width: W } = useWidth(720);
  const conv = plotValue(chart.kind, units);
  const unit = fmt.unit(chart.kind);
  const lines = chart.lines.filter((l) => l.points.length > 0);
  if (!lines.length) return null;
  const band = chart.bands.find((b) => b.min !== null || b.max !== null) ?? null;
  const all = lines.flatMap((l) => l.points.map((p) => conv(p[1])));
  if (band?.min !== null && band?.min !== undefined) all.push(conv(band.min));
  if (band?.max !== null && band?.max !== undefined) all.push(conv(band.max));
  const t0 = Math.min(...lines.map((l) => l.points[0][0]));
  const t1 = Math.max(t0 + 60_000, ...lines.map((l) => l.points[l.points.length - 1][0]));
  const { lo, hi, step } = yScale(all);
  const plotW = Math.max(60, W - L - R), plotH = H - T - B;
  const x = (ms: number) => L + ((ms - t0) / (t1 - t0)) * plotW;
  const y = (v: number) => T + plotH - ((v - lo) / (hi - lo)) * plotH;
  const span = t1 - t0;
  const pattern = span <= 86_400_000 ? "HH:mm" : "MM-DD HH:mm";
  const ticks = Math.max(2, Math.min(6, Math.floor(plotW / 110)));
  const digits = step < 1 ? 1 : 0;
  const colorOf = (i: number) => PALETTE[i % PALETTE.length];
  const lineY = (ms: number, line: typeof lines[number]) => {
    // The line's value at a mark's time: the reading in force then (the line is drawn in steps).
    let v = line.points[0][1];
    for (const p of line.points) {
      if (p[0] > ms) break;
      v = p[1];
    }
    return y(conv(v));
  };
  return (
    <section class="panel rp-chart-panel" data-testid="sensor-chart" data-kind={chart.kind}>
      <h3 class="rp-chart-title">
        {title}
        {unit && <span class="muted">({unit})</span>}
      </h3>
      <div class="rp-sensor-chart" ref={ref}>
        <svg viewBox={`0 0 ${W} ${H}`} height={H} role="img" aria-label={title}>
          {band && (
            <rect
              class="rp-band"
              x={L}
              width={plotW}
              y={band.max !== null ? y(conv(band.max)) : T}
              height={(band.min !== null ? y(conv(band.min)) : T + plotH) -
                (band.max !== null ? y(conv(band.max)) : T)}
            >
              <title>{t("reports.sensor.band")}</title>
            </rect>
          )}
          {[0, 1, 2, 3, 4].map((i) => {
            const v = lo + step * i;
            return (
              <g key={i} class="rp-grid">
                <line x1={L} x2={L + plotW} y1={y(v)} y2={y(v)} />
                <text x={L - 6} y={y(v)} text-anchor="end" dominant-baseline="central">
                  {v.toFixed(digits)}
                </text>
              </g>
            );
          })}
          {Array.from({ length: ticks + 1 }, (_, i) => t0 + (span * i) / ticks).map((ms, i) => (
            <text
              key={i}
              class="rp-axis"
              x={x(ms)}
              y={H - 6}
              text-anchor={i === 0 ? "start" : i === ticks ? "end" : "middle"}
            >
              {formatTime(ms, units.timeZone, pattern)}
            </text>
          ))}
          {lines.map((l, i) => (
            <polyline
              key={`${l.imei}:${l.index}`}
              class="rp-line"
              data-imei={l.imei}
              fill="none"
              stroke={colorOf(i)}
              stroke-width="2"
              stroke-linejoin="round"
              points={stepPoints(l.points, x, (v) => y(conv(v)))}
            />
          ))}
          {chart.marks.map((m, i) => {
            const line = lines.find((l) => l.imei === m.imei);
            if (!line || m.time < t0 || m.time > t1) return null;
            const cx = x(m.time), cy = lineY(m.time, line);
            const label = t(`reports.sensor.${m.kind}`, {
              amount: `${conv(m.amount).toFixed(1)} ${unit}`,
            });
            return (
              <g key={i} class={`rp-mark rp-mark-${m.kind}`} data-mark={m.kind}>
                <line x1={cx} x2={cx} y1={T} y2={T + plotH} />
                <circle cx={cx} cy={cy} r="5" />
                <title>{`${fmt.time(m.time)} · ${label}`}</title>
              </g>
            );
          })}
        </svg>
      </div>
      <ul class="rp-legend rp-legend-row">
        {lines.map((l, i) => (
          <li key={`${l.imei}:${l.index}`}>
            <i style={{ background: colorOf(i) }} />
            <span>
              {l.deviceName || l.imei}
              {l.index > 0 && ` · ${t("reports.sensor.probe", { probe: l.index })}`}
            </span>
          </li>
        ))}
        {chart.marks.some((m) => m.kind === "refuel") && (
          <li class="rp-legend-mark refuel">
            <i />
            <span>{t("reports.names.refueling")}</span>
          </li>
        )}
        {band && (
          <li class="rp-legend-band">
            <i />
            <span>{t("reports.sensor.band")}</span>
          </li>
        )}
      </ul>
    </section>
  );
}
