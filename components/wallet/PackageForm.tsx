import type { TFunction } from "i18next";
import { useState } from "react";
import { api } from "../../lib/client/api.ts";
import { Modal } from "../ui/Modal.tsx";
import { toast } from "../ui/Toast.tsx";
import { CURRENCIES, PACKAGE_MONTHS, type PackageRow } from "./types.ts";

type Draft = Record<
  "name" | "price" | "currency" | "months" | "smsCount" | "coins" | "discount",
  string
>;

const draftOf = (p: PackageRow | null): Draft => ({
  name: p?.name ?? "",
  price: String(p?.price ?? ""),
  currency: p?.currency ?? "USD",
  months: String(p?.months ?? 12),
  smsCount: String(p?.smsCount ?? 0),
  coins: String(p?.coins ?? ""),
  discount: String(p?.discount ?? 1),
});

/** Adds or edits one of the caller's packages. */
export function PackageForm(
  { t, pkg, onClose, onSaved }: {
    t: TFunction;
    pkg: PackageRow | null;
    onClose: () => void;
    onSaved: () => void;
  },
) {
  const [d, setD] = useState<Draft>(draftOf(pkg));
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const set = (k: keyof Draft) => (e: Event) =>
    setD({ ...d, [k]: (e.target as HTMLInputElement | HTMLSelectElement).value });
  const save = async () => {
    setError("");
    setBusy(true);
    const body = {
      ...(pkg ? { id: pkg.id } : {}),
      name: d.name.trim(),
      price: Number(d.price),
      currency: d.currency,
      months: Number(d.months),
      smsCount: Number(d.smsCount),
      coins: Number(d.coins),
      discount: Number(d.discount),
    };
    try {
      await api(`/v3/new/package/${pkg ? "update" : "add"}`, body);
      toast(t("wallet.packages.saved"));
      onSaved();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const num = (k: keyof Draft, step: string, min: string, max?: string) => (
    <input
      class="input"
      id={`pkg-${k}`}
      type="number"
      step={step}
      min={min}
      max={max}
      value={d[k]}
      onInput={set(k)}
    />
  );
  return (
    <Modal
      title={pkg ? t("wallet.packages.edit") : t("wallet.packages.add")}
      closeLabel={t("ui.close")}
      onClose={onClose}
      width={560}
      footer={
        <>
          <button type="button" class="btn" onClick={onClose}>{t("wallet.packages.cancel")}</button>
          <button
            type="button"
            class="btn btn-primary"
            id="pkg-save"
            disabled={busy || !d.name.trim()}
            onClick={save}
          >
            {t("wallet.packages.save")}
          </button>
        </>
      }
    >
      <div class="wallet-grid two">
        <label class="field wide">
          <span class="field-label">{t("wallet.packages.form.name")}</span>
          <input class="input" id="pkg-name" maxLength={50} value={d.name} onInput={set("name")} />
        </label>
        <label class="field">
          <span class="field-label">{t("wallet.packages.form.price")}</span>
          {num("price", "0.01", "0")}
        </label>
        <label class="field">
          <span class="field-label">{t("wallet.packages.form.currency")}</span>
          <select class="input" id="pkg-currency" value={d.currency} onChange={set("currency")}>
            {CURRENCIES.map((c) => <option key={c} value={c}>{c}</option>)}
          </select>
        </label>
        <label class="field">
          <span class="field-label">{t("wallet.packages.form.months")}</span>
          <select class="input" id="pkg-months" value={d.months} onChange={set("months")}>
            {PACKAGE_MONTHS.map((m) => (
              <option key={m} value={m}>
                {m ? t(`wallet.rates.terms.${m}`) : t("wallet.packages.noMonths")}
              </option>
            ))}
          </select>
        </label>
        <label class="field">
          <span class="field-label">{t("wallet.packages.form.smsCount")}</span>
          {num("smsCount", "1", "0")}
        </label>
        <label class="field">
          <span class="field-label">{t("wallet.packages.form.coins")}</span>
          {num("coins", "0.01", "0")}
        </label>
        <label class="field">
          <span class="field-label">{t("wallet.packages.form.discount")}</span>
          {num("discount", "0.01", "0.01", "1")}
          <span class="field-hint">{t("wallet.packages.form.discountHint")}</span>
        </label>
      </div>
      {error && <div class="form-error" role="alert" id="pkg-error">{error}</div>}
    </Modal>
  );
}
