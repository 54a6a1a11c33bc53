import type { TFunction } from "i18next";
import type { ReactNode } from "react";
import { coinText, type PackageRow } from "./types.ts";

/** A price in its own currency ("€9.90", "¥300"), in the page's language. */
export const priceText = (lang: string, p: Pick<PackageRow, "price" | "currency">) =>
  new Intl.NumberFormat(lang === "zh" ? "zh-CN" : "en-US", {
    style: "currency",
    currency: p.currency,
  }).format(p.price);

/** Packages offered to the caller (with Buy) or its own (with Edit and Delete). */
export function PackageTable(
  { t, lang, rows, id, empty, actions }: {
    t: TFunction;
    lang: string;
    rows: PackageRow[] | null;
    id: string;
    empty: string;
    actions: (p: PackageRow) => ReactNode;
  },
) {
  return (
    <div class="table-wrap">
      <table class="data packages" id={id}>
        <thead>
          <tr>
            <th>{t("wallet.packages.col.name")}</th>
            <th class="num">{t("wallet.packages.col.price")}</th>
            <th>{t("wallet.packages.col.months")}</th>
            <th class="num">{t("wallet.packages.col.sms")}</th>
            <th class="num">{t("wallet.packages.col.coins")}</th>
            <th class="num">{t("wallet.packages.col.discount")}</th>
            <th class="num">{t("wallet.packages.col.cost")}</th>
            <th>{t("wallet.packages.col.seller")}</th>
            <th>{t("wallet.packages.col.actions")}</th>
          </tr>
        </thead>
        <tbody>
          {!rows && (
            <tr>
              <td colSpan={9} class="empty">{t("ui.loading")}</td>
            </tr>
          )}
          {rows?.length === 0 && (
            <tr>
              <td colSpan={9} class="empty">{empty}</td>
            </tr>
          )}
          {rows?.map((p) => (
            <tr key={p.id} data-package={p.name}>
              <td>
                <strong>{p.name}</strong>
              </td>
              <td class="num">{priceText(lang, p)}</td>
              <td>
                {p.months
                  ? `${t(`wallet.rates.terms.${p.months}`)}`
                  : t("wallet.packages.noMonths")}
              </td>
              <td class="num">{p.smsCount}</td>
              <td class="num">{coinText(p.coins)}</td>
              <td class="num">{p.discount < 1 ? `×${p.discount}` : "—"}</td>
              <td class="num">
                <strong>{coinText(p.cost)}</strong>
              </td>
              <td>{p.seller}</td>
              <td class="row-actions">{actions(p)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
