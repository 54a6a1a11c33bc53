import type { TFunction } from "i18next";
import { CARD_TYPES, coinText, type ShellBalance } from "./types.ts";

/** The caller's balances: Mi coins, each recharge card type, and credits (read-only here). */
export function BalanceStrip(
  { t, balance, unlimited }: { t: TFunction; balance: ShellBalance | null; unlimited: boolean },
) {
  const value = (n: number | undefined) => (balance ? n ?? 0 : "…");
  return (
    <section class="wallet-balances" aria-label={t("wallet.balances.mine")}>
      <div class="wallet-figure coins" id="balance-coins">
        <span class="wallet-figure-label">{t("wallet.balances.coins")}</span>
        <strong>{unlimited ? "∞" : balance ? coinText(balance.coinNumber) : "…"}</strong>
        <span class="muted">
          {unlimited ? t("wallet.balances.unlimited") : t("wallet.balances.coinsHint")}
        </span>
      </div>
      {CARD_TYPES.map((c) => (
        <div key={c} class="wallet-figure card" id={`balance-card-${c}`}>
          <span class="wallet-figure-label">{t(`wallet.cardTypes.${c}`)}</span>
          <strong>{unlimited ? "∞" : value(balance?.cards[c])}</strong>
          <span class="muted">
            {t(c === "point" ? "wallet.cardHints.point" : "wallet.cardHints.length")}
          </span>
        </div>
      ))}
      <a class="wallet-figure credits" id="balance-credits" href="/credits">
        <span class="wallet-figure-label">{t("wallet.balances.credits")}</span>
        <strong>{value(balance?.credits)}</strong>
        <span class="muted">{t("wallet.balances.creditsHint")}</span>
      </a>
    </section>
  );
}
