import type { TFunction } from "i18next";
import { useEffect, useState } from "react";
import { api } from "../../lib/client/api.ts";
import type { AccountRef } from "../accounts/types.ts";
import { toast } from "../ui/Toast.tsx";
import { CARD_TYPES, type CardType, coinText, type WalletBalance } from "./types.ts";

interface Props {
  t: TFunction;
  me: { id: string };
  /** The account chosen in the tree (the caller itself until one below is chosen). */
  target: AccountRef;
  onDone: () => void;
}

const emptyCards = () =>
  Object.fromEntries(CARD_TYPES.map((c) => [c, ""])) as Record<CardType, string>;

/** Gives Mi coins and recharge cards to the account chosen in the tree (never to oneself). */
export function GivePanel({ t, me, target, onDone }: Props) {
  const [coins, setCoins] = useState("");
  const [cards, setCards] = useState(emptyCards);
  const [theirs, setTheirs] = useState<WalletBalance | null>(null);
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const self = target.id === me.id;
  const load = () => {
    setTheirs(null);
    if (!self) {
      api<WalletBalance>("/v3/new/wallet/balance", { userId: target.id }).then(setTheirs, () => {});
    }
  };
  useEffect(load, [target.id]);
  if (self) {
    return <p class="wallet-note" id="give-choose">{t("wallet.give.self")}</p>;
  }
  const submit = async (e: Event) => {
    e.preventDefault();
    setError("");
    const body: { targetUserId: string; coins?: number; cards?: Record<string, number> } = {
      targetUserId: target.id,
    };
    if (Number(coins) > 0) body.coins = Number(coins);
    const picked = CARD_TYPES.filter((c) => Number(cards[c]) > 0);
    if (picked.length) body.cards = Object.fromEntries(picked.map((c) => [c, Number(cards[c])]));
    if (!body.coins && !body.cards) return setError(t("wallet.give.nothing"));
    setBusy(true);
    try {
      await api("/v3/new/wallet/allocate", body);
      toast(t("wallet.give.done", { name: target.nickName || target.account }));
      setCoins("");
      setCards(emptyCards());
      load();
      onDone();
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="wallet-form" id="give-form" onSubmit={submit}>
      <h2 class="wallet-h">
        {t("wallet.give.title", { name: target.nickName || target.account })}
      </h2>
      {theirs && (
        <p class="muted" id="give-theirs">
          {t("wallet.give.theirs", { name: target.account })}: {t("wallet.balances.coins")}{" "}
          {coinText(theirs.coins)} ·{" "}
          {CARD_TYPES.map((c) => `${t(`wallet.cardTypes.${c}`)} ${theirs.cards[c]}`).join(" · ")}
        </p>
      )}
      <div class="wallet-grid give">
        <label class="field">
          <span class="field-label">{t("wallet.give.coins")}</span>
          <input
            class="input"
            id="give-coins"
            type="number"
            min="0"
            step="0.01"
            inputMode="decimal"
            value={coins}
            onInput={(e) => setCoins((e.target as HTMLInputElement).value)}
          />
        </label>
        {CARD_TYPES.map((c) => (
          <label class="field" key={c}>
            <span class="field-label">{t(`wallet.cardTypes.${c}`)}</span>
            <input
              class="input"
              id={`give-card-${c}`}
              type="number"
              min="0"
              step="1"
              inputMode="numeric"
              value={cards[c]}
              onInput={(e) => setCards({ ...cards, [c]: (e.target as HTMLInputElement).value })}
            />
          </label>
        ))}
      </div>
      {error && <div class="form-error" role="alert" id="give-error">{error}</div>}
      <div class="wallet-actions">
        <button type="submit" class="btn btn-primary" id="give-submit" disabled={busy}>
          {t("wallet.give.submit")}
        </button>
      </div>
    </form>
  );
}
