import type { TFunction } from "i18next";
import { useEffect, useState } from "react";
import { api } from "../../lib/client/api.ts";
import { toast } from "../ui/Toast.tsx";
import { type Rate, RENEWAL_OPTIONS, TERMS } from "./types.ts";

/** Renewal option and Mi coin price per term of every model; a model without rate cannot renew. */
export function RatesPanel({ t }: { t: TFunction }) {
  const [rates, setRates] = useState<{ mcType: string; rate: Rate | null }[] | null>(null);
  useEffect(() => {
    api<{ mcType: string; rate: Rate | null }[]>("/v3/new/wallet/rates").then(
      setRates,
      (e) => toast((e as Error).message, "error"),
    );
  }, []);
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
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
