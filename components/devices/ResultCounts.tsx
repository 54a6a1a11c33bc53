import type { TFunction } from "i18next";

/** The "N changed · M failed" pills above a per-device or per-row result list. */
export function ResultCounts({ t, okKey, ok, total }: {
  t: TFunction;
  /** The locale key of the success count (it takes `count`). */
  okKey: string;
  ok: number;
  total: number;
}) {
  return (
    <p class="result-counts">
      <span class="pill ok">{t(okKey, { count: ok })}</span>
      <span class={`pill ${total - ok ? "bad" : "muted"}`}>
        {t("devices.import.failed", { count: total - ok })}
      </span>
    </p>
  );
}
