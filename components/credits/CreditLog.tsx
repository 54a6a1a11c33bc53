import type { translator } from "../../lib/i18n/i18n.ts";
import { formatTime } from "../alerts/format.ts";
import { PagerFor } from "../ui/Pagination.tsx";
import type { CreditLogEntry } from "../../modules/credits/model.ts";
import type { CreditsState } from "./credits_state.ts";

type Translate = ReturnType<typeof translator>;

const detailOf = (t: Translate, e: CreditLogEntry) => {
  if (e.kind === "buy" && e.coinCents) return t("credits.log.paid", { coins: e.coinCents / 100 });
  const what = e.kind === "push" && e.detail ? t(`credits.log.channels.${e.detail}`) : e.detail;
  const who = e.spenderId ? t("credits.log.by", { account: e.spenderAccount || e.spenderId }) : "";
  return [what, who].filter(Boolean).join(" · ");
};

/** The credits log, newest first, paged. */
export function CreditLog({ t, s }: { t: Translate; s: CreditsState }) {
  const list = s.log?.list ?? [];
  return (
    <section class="panel credits-log">
      <h2>{t("credits.log.title")}</h2>
      <div class="table-wrap">
        <table class="data" id="credits-log">
          <thead>
            <tr>
              <th>{t("credits.log.time")}</th>
              <th>{t("credits.log.kind")}</th>
              <th class="num">{t("credits.log.credits")}</th>
              <th class="num">{t("credits.log.balance")}</th>
              <th>{t("credits.log.detail")}</th>
            </tr>
          </thead>
          <tbody>
            {s.log && !list.length && (
              <tr>
                <td colSpan={5} class="empty">{t("credits.log.empty")}</td>
              </tr>
            )}
            {list.map((e) => (
              <tr key={e.id}>
                <td data-label={t("credits.log.time")}>{formatTime(Date.parse(e.time))}</td>
                <td data-label={t("credits.log.kind")}>{t(`credits.log.kinds.${e.kind}`)}</td>
                <td
                  data-label={t("credits.log.credits")}
                  class={`num ${e.credits < 0 ? "credits-minus" : "credits-plus"}`}
                >
                  {e.credits > 0 ? `+${e.credits}` : e.credits}
                </td>
                <td data-label={t("credits.log.balance")} class="num">{e.balance}</td>
                <td data-label={t("credits.log.detail")} class="muted">{detailOf(t, e)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <PagerFor t={t} total={s.log?.total ?? 0} page={s.page} setPage={s.setPage} />
    </section>
  );
}
