import { island } from "../../lib/islands/island.tsx";
import { type Lang, translator } from "../../lib/i18n/i18n.ts";
import { Toasts } from "../../components/ui/Toast.tsx";
import { useCredits } from "../../components/credits/credits_state.ts";
import { BalancePanel } from "../../components/credits/BalancePanel.tsx";
import { BuyPanel } from "../../components/credits/BuyPanel.tsx";
import { SharePanel } from "../../components/credits/SharePanel.tsx";
import { ReminderPanel } from "../../components/credits/ReminderPanel.tsx";
import { CreditLog } from "../../components/credits/CreditLog.tsx";

/**
 * Credits (/credits): the balance and what it is worth, buying credits with Mi coins, the
 * shared pool, the balance reminder and the credits log.
 */
function CreditsPage({ lang }: { lang: Lang }) {
  const t = translator(lang);
  const s = useCredits(t);
  return (
    <div class="credits-page">
      <div class="panel-title">
        <h1>{t("credits.title")}</h1>
      </div>
      {s.view
        ? <BalancePanel t={t} view={s.view} />
        : <p class="table-loading">{t("ui.loading")}</p>}
      <div class="credits-columns">
        <BuyPanel t={t} s={s} />
        {s.view?.canShare && <SharePanel t={t} s={s} />}
        <ReminderPanel t={t} s={s} />
      </div>
      <CreditLog t={t} s={s} />
      <Toasts />
    </div>
  );
}

export default island("credits/CreditsPage", CreditsPage);
