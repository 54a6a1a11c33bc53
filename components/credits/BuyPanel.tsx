import { useState } from "react";
import type { translator } from "../../lib/i18n/i18n.ts";
import { centsForCredits, creditsForCents } from "../../modules/credits/model.ts";
import { Field } from "../ui/Field.tsx";
import type { CreditsState } from "./credits_state.ts";

type Translate = ReturnType<typeof translator>;

/** Buying credits with Mi coins: what the coins buy (rounded down) is shown as one types. */
export function BuyPanel({ t, s }: { t: Translate; s: CreditsState }) {
  const [coins, setCoins] = useState("1");
  const cents = Math.round(Number(coins) * 100);
  const credits = Number.isFinite(cents) && cents > 0 ? creditsForCents(cents) : 0;
  const submit = async (e: Event) => {
    e.preventDefault();
    if (credits >= 1) await s.buy(cents / 100);
  };
  return (
    <form class="panel credits-buy" onSubmit={submit} noValidate>
      <h2>{t("credits.buy.title")}</h2>
      {s.view && !s.view.canBuy ? <p class="muted">{t("credits.buy.notAllowed")}</p> : (
        <>
          <Field label={t("credits.buy.coins")} hint={t("credits.buy.rounding")}>
            <input
              name="coins"
              type="number"
              min="0.02"
              step="0.01"
              inputMode="decimal"
              value={coins}
              onInput={(e) => setCoins((e.target as HTMLInputElement).value)}
            />
          </Field>
          <p class="credits-preview" id="credits-preview" aria-live="polite">
            {credits >= 1
              ? t("credits.buy.preview", { credits, coins: centsForCredits(credits) / 100 })
              : t("credits.buy.previewNone")}
          </p>
          <button
            type="submit"
            class="btn btn-primary"
            id="credits-buy"
            disabled={s.busy || credits < 1}
          >
            {t("credits.buy.submit")}
          </button>
        </>
      )}
    </form>
  );
}
