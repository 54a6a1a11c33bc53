import type { TFunction } from "i18next";
import { useState } from "react";
import { api } from "../../lib/client/api.ts";
import { toast } from "../ui/Toast.tsx";
import { CARD_TYPES, type CardType } from "./types.ts";

/** Redeems a recharge card code into the caller's card balance. */
export function RedeemPanel({ t, onDone }: { t: TFunction; onDone: () => void }) {
  const [code, setCode] = useState("");
  const [type, setType] = useState<CardType>("1y");
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    setError("");
    setBusy(true);
    try {
      await api("/v3/new/wallet/cards/redeem", { code: code.trim(), type });
      toast(t("wallet.redeem.done", { type: t(`wallet.cardTypes.${type}`) }));
      setCode("");
      onDone();
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="wallet-form narrow" id="redeem-form" onSubmit={submit}>
      <p class="muted">{t("wallet.redeem.intro")}</p>
      <label class="field">
        <span class="field-label">{t("wallet.redeem.type")}</span>
        <select
          class="input"
          id="redeem-type"
          value={type}
          onChange={(e) => setType((e.target as HTMLSelectElement).value as CardType)}
        >
          {CARD_TYPES.map((c) => <option key={c} value={c}>{t(`wallet.cardTypes.${c}`)}</option>)}
        </select>
      </label>
      <label class="field">
        <span class="field-label">{t("wallet.redeem.code")}</span>
        <input
          class="input"
          id="redeem-code"
          autoComplete="off"
          maxLength={32}
          value={code}
          onInput={(e) => setCode((e.target as HTMLInputElement).value)}
        />
      </label>
      {error && <div class="form-error" role="alert" id="redeem-error">{error}</div>}
      <div class="wallet-actions">
        <button type="submit" class="btn btn-primary" id="redeem-submit" disabled={busy || !code}>
          {t("wallet.redeem.submit")}
        </button>
      </div>
    </form>
  );
}
