import type { TFunction } from "i18next";
import { useEffect, useState } from "react";
import { api } from "../../lib/client/api.ts";
import { toast } from "../ui/Toast.tsx";
import { type Rate, RENEWAL_OPTIONS, TERMS } from "./types.ts";
import { RateEditor } from "./RateEditor.tsx";

/**
 * Renewal option and Mi coin price per term of every model; a model without rate cannot
 * renew. The platform administrator edits or removes a model's rate.
 */
export function RatesPanel({ t, canEdit }: { t: TFunction; canEdit: boolean }) {
  const [rates, setRates] = useState<{ mcType: string; rate: Rate | null }[] | null>(null);
  const [editing, setEditing] = useState<{ mcType: string; rate: Rate | null } | null>(null);
  const load = () => {
    api<{ mcType: string; rate: Rate | null }[]>("/v3/new/wallet/rates").then(
      setRates,
      (e) => toast((e as Error).message, "error"),
    );
  };
  useEffect(load, []);
  return (
    <div class="wallet-rates">
      <p class="muted">{t("wallet.rates.hint")}</p>
      <div class="table-wrap">
        <table class="data" id="rates-table">
          <thead>
            <tr>
              <th>{t("wallet.rates.model")}</th>
              <th>{t("wallet.rates.option")}</th>
              {TERMS.map((m) => <th key={m} class="num">{t(`wallet.rates.terms.${m}`)}</th>)}
              {canEdit && <th />}
            </tr>
          </thead>
          <tbody>
            {!rates && (
              <tr>
                <td colSpan={6} class="empty">{t("ui.loading")}</td>
              </tr>
            )}
            {rates?.map(({ mcType, rate }) => (
              <tr key={mcType} class={rate ? "" : "no-rate"}>
                <td>
                  <strong>{mcType}</strong>
                </td>
                {rate
                  ? (
                    <>
                      <td>{t(`wallet.rates.options.${rate.option}`)}</td>
                      {TERMS.map((m) => {
                        const offered = RENEWAL_OPTIONS[rate.option].includes(m);
                        const price = rate.prices[`${m}`];
                        return (
                          <td key={m} class="num">
                            {offered && price ? price : t("wallet.rates.notOffered")}
                          </td>
                        );
                      })}
                    </>
                  )
                  : (
                    <td colSpan={5}>
                      <span class="pill bad">{t("wallet.rates.noRate")}</span>
                    </td>
                  )}
                {canEdit && (
                  <td class="row-actions">
                    <button
                      type="button"
                      class="link-btn"
                      data-edit-rate={mcType}
                      onClick={() => setEditing({ mcType, rate })}
                    >
                      {t("wallet.rates.edit")}
                    </button>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {editing && (
        <RateEditor
          t={t}
          mcType={editing.mcType}
          rate={editing.rate}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            load();
          }}
        />
      )}
    </div>
  );
}
