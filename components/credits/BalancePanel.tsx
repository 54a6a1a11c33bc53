import type { translator } from "../../lib/i18n/i18n.ts";
import type { CreditsView } from "../../modules/credits/model.ts";

type Translate = ReturnType<typeof translator>;

const round = (n: number, digits: number) => Number(n.toFixed(digits));

/** The balance, what it is worth, the conversion, this month's pushes and the SMS cost. */
export function BalancePanel({ t, view }: { t: Translate; view: CreditsView }) {
  const p = view.pushes;
  return (
    <section class="credits-summary" aria-label={t("credits.balance")}>
      <div class="credits-card credits-balance">
        <span class="muted">{t("credits.balance")}</span>
        <strong id="credits-balance">{view.credits}</strong>
        <span class="credits-unit">{t("credits.creditsUnit")}</span>
        <span class="muted">
          {t("credits.worth", {
            coins: round(view.credits * view.coinsPerCredit, 3),
            usd: round(view.credits * view.usdPerCredit, 3),
          })}
        </span>
        {view.pool && (
          <span class="credits-pool">
            {t("credits.pool", { account: view.pool.account, credits: view.pool.credits })}
          </span>
        )}
      </div>
      <div class="credits-card">
        <span class="muted">{t("credits.pushes", { month: p.month })}</span>
        <meter
          class="credits-meter"
          min={0}
          max={Math.max(1, p.quota)}
          value={Math.min(p.free, p.quota)}
          aria-label={t("credits.pushesFree", { free: p.free, quota: p.quota })}
        />
        <span>{t("credits.pushesFree", { free: p.free, quota: p.quota })}</span>
        <span class="muted">
          {t("credits.pushesPaid", { paid: p.paid })}
          {p.skipped > 0 && <>{" · "}{t("credits.pushesSkipped", { skipped: p.skipped })}</>}
        </span>
        <span class="field-hint">{t("credits.pushesNote")}</span>
      </div>
      <div class="credits-card">
        <span class="muted">{t("credits.sms")}</span>
        <span>
          {view.sms.enabled
            ? t("credits.smsOn", { credits: view.sms.credits })
            : t("credits.smsOff")}
        </span>
        <span class="credits-rate" id="credits-conversion">
          {t("credits.conversion", { coins: view.coinsPerCredit, usd: view.usdPerCredit })}
        </span>
        <span class="field-hint">{t("credits.freeNote")}</span>
      </div>
    </section>
  );
}
