import type { TFunction } from "i18next";
import type { ReactNode } from "react";
import { toLocalInput } from "../../modules/monitor/time.ts";
import { QUICK_RANGES, quickOf, quickRange, type Range } from "./range.ts";

/** A key figure: a label over a big number, with an optional line under it. */
export function Kpi({ label, value, note, tone }: {
  label: string;
  value: ReactNode;
  note?: string;
  tone?: "ok" | "warn" | "muted" | "danger";
}) {
  return (
    <div class={`rp-kpi${tone ? ` rp-kpi-${tone}` : ""}`}>
      <span class="rp-kpi-label">{label}</span>
      <b class="rp-kpi-value">{value}</b>
      {note && <span class="rp-kpi-note">{note}</span>}
    </div>
  );
}

/** A titled chart card. */
export function Card({ title, children, wide, id }: {
  title: string;
  children: ReactNode;
  wide?: boolean;
  id?: string;
}) {
  return (
    <section class={`panel rp-card${wide ? " wide" : ""}`} id={id}>
      <h2>{title}</h2>
      {children}
    </section>
  );
}

/** The range of the moving and alert overviews: quick choices only (at most a month). */
export function OverviewRange({ t, tz, range, onChange }: {
  t: TFunction;
  tz: string;
  range: Range;
  onChange: (r: Range) => void;
}) {
  const now = Date.now();
  const chosen = quickOf(range, now, tz);
  return (
    <div class="rp-overview-range">
      <div class="rp-quick" role="group" aria-label={t("reports.form.quick")}>
        {QUICK_RANGES.map((k) => (
          <button
            key={k}
            type="button"
            class={`rp-quick-btn${chosen === k ? " active" : ""}`}
            aria-pressed={chosen === k}
            data-range={k}
            onClick={() => onChange(quickRange(k, Date.now(), tz))}
          >
            {t(`reports.quick.${k}`)}
          </button>
        ))}
      </div>
      <span class="muted rp-range-text">
        {toLocalInput(range.from, tz).replace("T", " ")} – {toLocalInput(range.to, tz).replace(
          "T",
          " ",
        )}
      </span>
    </div>
  );
}

/** Loading and failure states of an overview. */
export function OverviewStatus({ t, error }: { t: TFunction; error: string }) {
  return (
    <div class="panel empty rp-empty">
      <p>{error || t("reports.table.loading")}</p>
    </div>
  );
}
