import { useLayoutEffect, useRef, useState } from "react";

/**
 * The overviews' charts, drawn as SVG (no chart library): a donut of shares, horizontal bars
 * of a ranking, and day columns (stacked by series). They scale with their box, print sharp,
 * and take the theme colour from CSS.
 */

/** Series colours: the theme first, then distinct hues that read on white and in print. */
export const PALETTE = [
  "var(--theme)",
  "#f59e0b",
  "#10b981",
  "#ef4444",
  "#8b5cf6",
  "#06b6d4",
  "#f97316",
  "#64748b",
  "#ec4899",
  "#84cc16",
];

export interface Share {
  key: string;
  label: string;
  value: number;
  color: string;
}

/** A ring of shares with the total in the middle and a legend beside it. */
export function Donut({ shares, total, caption }: {
  shares: Share[];
  total: number;
  caption: string;
}) {
  const r = 40, stroke = 16, c = 2 * Math.PI * r;
  let offset = 0;
  const sum = shares.reduce((a, s) => a + s.value, 0);
  return (
    <div class="rp-donut">
      <svg viewBox="0 0 100 100" role="img" aria-label={caption}>
        <circle cx="50" cy="50" r={r} fill="none" stroke="#eef2f7" stroke-width={stroke} />
        {sum > 0 && shares.filter((s) => s.value > 0).map((s) => {
          const len = (s.value / sum) * c;
          const el = (
            <circle
              key={s.key}
              cx="50"
              cy="50"
              r={r}
              fill="none"
              stroke={s.color}
              stroke-width={stroke}
              stroke-dasharray={`${len} ${c - len}`}
              stroke-dashoffset={-offset}
              transform="rotate(-90 50 50)"
            />
          );
          offset += len;
          return el;
        })}
        <text x="50" y="50" class="rp-donut-total" text-anchor="middle" dominant-baseline="central">
          {total}
        </text>
      </svg>
      <ul class="rp-legend">
        {shares.map((s) => (
          <li key={s.key} data-key={s.key}>
            <i style={{ background: s.color }} />
            <span>{s.label}</span>
            <b>{s.value}</b>
          </li>
        ))}
      </ul>
    </div>
  );
}

export interface Bar {
  key: string;
  label: string;
  value: number;
  /** The value as shown ("12.5 km"). */
  text: string;
  href?: string;
}

/** Horizontal bars, longest first as given; each bar's length is its share of the largest. */
export function HBars({ bars, color = "var(--theme)", empty, fixed }: {
  bars: Bar[];
  color?: string;
  empty: string;
  /** Fixed categories (windows, states): shown even when all are zero. */
  fixed?: boolean;
}) {
  const max = Math.max(0, ...bars.map((b) => b.value));
  if (!bars.length || (max <= 0 && !fixed)) return <p class="rp-chart-empty">{empty}</p>;
  return (
    <ol class="rp-hbars">
      {bars.map((b) => (
        <li key={b.key}>
          <span class="rp-hbar-label" title={b.label}>
            {b.href ? <a href={b.href}>{b.label}</a> : b.label}
          </span>
          <span class="rp-hbar-track">
            <span
              class="rp-hbar"
              style={{
                width: `${max > 0 && b.value > 0 ? Math.max(1, (b.value / max) * 100) : 0}%`,
                background: color,
              }}
            />
          </span>
          <span class="rp-hbar-value">{b.text}</span>
        </li>
      ))}
    </ol>
  );
}

export interface Series {
  key: string;
  label: string;
  color: string;
  values: number[];
}

/** A round step (1, 2 or 5 × 10ⁿ) at or above `v`: the y axis has four of them. */
export function niceStep(v: number): number {
  if (v <= 0) return 1;
  const p = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 2, 5, 10]) if (m * p >= v - 1e-9) return m * p;
  return 10 * p;
}

const H = 220, L = 44, B = 24, T = 10;

/** The width of an element in CSS pixels, followed as it resizes (the chart draws at it). */
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

/** Day columns, stacked by series, with a y axis (4 steps) and thinned day labels. */
export function Columns({ days, series, format, caption, empty }: {
  /** YYYY-MM-DD per column. */
  days: string[];
  series: Series[];
  format: (v: number) => string;
  caption: string;
  empty: string;
}) {
  // Drawn at the box's own width, so the axis text keeps its size on a phone.
  const { ref, width: W } = useWidth(640);
  const totals = days.map((_, i) => series.reduce((a, s) => a + (s.values[i] ?? 0), 0));
  const max = 4 * niceStep(Math.max(0, ...totals) / 4);
  if (!days.length) return <p class="rp-chart-empty">{empty}</p>;
  const plotW = W - L - 8, plotH = H - B - T;
  const step = plotW / days.length;
  const bw = Math.max(2, Math.min(28, step * 0.62));
  const every = Math.ceil(days.length / Math.max(2, Math.floor(plotW / 56)));
  const y = (v: number) => T + plotH - (v / max) * plotH;
  return (
    <div class="rp-columns" ref={ref}>
      <svg viewBox={`0 0 ${W} ${H}`} height={H} role="img" aria-label={caption}>
        {[0, 1, 2, 3, 4].map((i) => {
          const v = (max * i) / 4;
          return (
            <g key={i} class="rp-grid">
              <line x1={L} x2={W - 8} y1={y(v)} y2={y(v)} />
              <text x={L - 6} y={y(v)} text-anchor="end" dominant-baseline="central">
                {format(v)}
              </text>
            </g>
          );
        })}
        {days.map((d, i) => {
          let base = 0;
          const x = L + i * step + (step - bw) / 2;
          return (
            <g key={d} data-day={d}>
              <title>{`${d}: ${format(totals[i])}`}</title>
              {series.map((s) => {
                const v = s.values[i] ?? 0;
                if (v <= 0) return null;
                const top = y(base + v), h = y(base) - top;
                base += v;
                return (
                  <rect key={s.key} x={x} y={top} width={bw} height={h} fill={s.color} rx={1.5} />
                );
              })}
              {i % every === 0 && (
                <text class="rp-axis" x={x + bw / 2} y={H - 6} text-anchor="middle">
                  {d.slice(5)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      {series.length > 1 && (
        <ul class="rp-legend rp-legend-row">
          {series.map((s) => (
            <li key={s.key}>
              <i style={{ background: s.color }} />
              <span>{s.label}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
