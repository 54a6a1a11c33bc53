import type { TFunction } from "i18next";
import { useState } from "react";
import { api } from "../../lib/client/api.ts";
import { Modal } from "../ui/Modal.tsx";
import { toast } from "../ui/Toast.tsx";
import { type Rate, RENEWAL_OPTIONS } from "./types.ts";

type Option = Rate["option"];
const OPTIONS = [1, 2, 3, 4] as const;

/** The administrator sets a model's renewal option and the price of each term it offers, or removes the rate. */
export function RateEditor(
  { t, mcType, rate, onClose, onSaved }: {
    t: TFunction;
    mcType: string;
    rate: Rate | null;
    onClose: () => void;
    onSaved: () => void;
  },
) {
  const [option, setOption] = useState<Option | 0>(rate?.option ?? 0);
  const [prices, setPrices] = useState<Record<string, string>>(
    Object.fromEntries(Object.entries(rate?.prices ?? {}).map(([k, v]) => [k, String(v)])),
  );
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const save = async () => {
    setBusy(true);
    setError("");
    const next = option
      ? {
        option,
        prices: Object.fromEntries(
          RENEWAL_OPTIONS[option].filter((m) => prices[m]).map((m) => [m, Number(prices[m])]),
        ),
      }
      : null;
    try {
      await api("/v3/new/wallet/setRate", { mcType, rate: next });
      toast(t("wallet.rates.saved"));
      onSaved();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      title={t("wallet.rates.editTitle", { model: mcType })}
      closeLabel={t("ui.close")}
      onClose={onClose}
      footer={
        <>
          <button type="button" class="btn" onClick={onClose}>{t("wallet.rates.cancel")}</button>
          <button
            type="button"
            class="btn btn-primary"
            id="rate-save"
            disabled={busy}
            onClick={save}
          >
            {t("wallet.rates.save")}
          </button>
        </>
      }
    >
      <div class="wallet-form">
        <label class="field">
          <span class="field-label">{t("wallet.rates.option")}</span>
          <select
            class="input"
            id="rate-option"
            value={option}
            onChange={(e) => setOption(Number((e.target as HTMLSelectElement).value) as Option | 0)}
          >
            <option value={0}>{t("wallet.rates.remove")}</option>
            {OPTIONS.map((o) => <option key={o} value={o}>{t(`wallet.rates.options.${o}`)}
            </option>)}
          </select>
        </label>
        {option !== 0 && (
          <div class="wallet-grid two">
            {RENEWAL_OPTIONS[option].map((m) => (
              <label class="field" key={m}>
                <span class="field-label">
                  {t(`wallet.rates.terms.${m}`)} · {t("wallet.rates.price")}
                </span>
                <input
                  class="input"
                  id={`rate-price-${m}`}
                  type="number"
                  min="0.01"
                  step="0.01"
                  value={prices[m] ?? ""}
                  onInput={(e) =>
                    setPrices({ ...prices, [m]: (e.target as HTMLInputElement).value })}
                />
              </label>
            ))}
          </div>
        )}
        {error && <div class="form-error" role="alert">{error}</div>}
      </div>
    </Modal>
  );
}
