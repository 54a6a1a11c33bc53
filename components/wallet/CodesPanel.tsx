import type { TFunction } from "i18next";
import { useEffect, useState } from "react";
import dayjs from "dayjs";
import { api } from "../../lib/client/api.ts";
import { upload } from "../devices/transfer_io.ts";
import { FIRST_PAGE, PagerFor } from "../ui/Pagination.tsx";
import { toast } from "../ui/Toast.tsx";
import { CARD_TYPES, type CardCodeRow, type CardType } from "./types.ts";

type UsedFilter = "all" | "used" | "unused";

/** The administrator's recharge card codes: import from a file, list used and unused ones. */
export function CodesPanel({ t }: { t: TFunction }) {
  const [type, setType] = useState<CardType>("1y");
  const [file, setFile] = useState<File | null>(null);
  const [result, setResult] = useState("");
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const [used, setUsed] = useState<UsedFilter>("all");
  const [page, setPage] = useState(FIRST_PAGE);
  const [data, setData] = useState<{ total: number; list: CardCodeRow[] } | null>(null);
  const load = () => {
    const filter = used === "all" ? {} : { used: used === "used" };
    api<{ total: number; list: CardCodeRow[] }>("/v3/new/wallet/cards/list", { ...filter, ...page })
      .then(setData, (e) => toast((e as Error).message, "error"));
  };
  useEffect(load, [used, page]);
  const submit = async (e: Event) => {
    e.preventDefault();
    if (!file) return;
    setError("");
    setResult("");
    setBusy(true);
    const form = new FormData();
    form.set("type", type);
    form.set("file", file);
    try {
      const r = await upload<{ added: number; existing: number; repeated: number }>(
        "/v3/new/wallet/cards/import",
        form,
      );
      setResult(t("wallet.codes.done", r));
      load();
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="wallet-codes">
      <form class="wallet-form" id="codes-form" onSubmit={submit}>
        <p class="muted">{t("wallet.codes.intro")}</p>
        <div class="toolbar">
          <label class="inline-field">
            {t("wallet.codes.type")}
            <select
              class="input"
              id="codes-type"
              value={type}
              onChange={(e) => setType((e.target as HTMLSelectElement).value as CardType)}
            >
              {CARD_TYPES.map((c) => <option key={c} value={c}>{t(`wallet.cardTypes.${c}`)}
              </option>)}
            </select>
          </label>
          <input
            class="input"
            id="codes-file"
            type="file"
            accept=".xlsx,.txt,.csv"
            aria-label={t("wallet.codes.file")}
            onChange={(e) => setFile((e.target as HTMLInputElement).files?.[0] ?? null)}
          />
          <button type="submit" class="btn btn-primary" id="codes-submit" disabled={busy || !file}>
            {t("wallet.codes.submit")}
          </button>
        </div>
        {result && <div class="form-ok" id="codes-result">{result}</div>}
        {error && <div class="form-error" role="alert" id="codes-error">{error}</div>}
      </form>
      <div class="toolbar">
        <select
          class="input"
          id="codes-filter"
          aria-label={t("wallet.codes.used")}
          value={used}
          onChange={(e) => {
            setUsed((e.target as HTMLSelectElement).value as UsedFilter);
            setPage(FIRST_PAGE);
          }}
        >
          {(["all", "unused", "used"] as const).map((u) => (
            <option key={u} value={u}>{t(`wallet.codes.${u}`)}</option>
          ))}
        </select>
      </div>
      <div class="table-wrap">
        <table class="data" id="codes-table">
          <thead>
            <tr>
              <th>{t("wallet.codes.code")}</th>
              <th>{t("wallet.codes.type")}</th>
              <th>{t("wallet.codes.importedAt")}</th>
              <th>{t("wallet.codes.used")}</th>
              <th>{t("wallet.codes.usedAt")}</th>
            </tr>
          </thead>
          <tbody>
            {data?.list.length === 0 && (
              <tr>
                <td colSpan={5} class="empty">{t("ui.noData")}</td>
              </tr>
            )}
            {data?.list.map((c) => (
              <tr key={c.code}>
                <td class="mono">{c.code}</td>
                <td>{t(`wallet.cardTypes.${c.type}`)}</td>
                <td>{dayjs(c.importedAt).format("YYYY-MM-DD HH:mm")}</td>
                <td>
                  <span class={`pill ${c.usedBy ? "" : "info"}`}>
                    {t(c.usedBy ? "wallet.codes.used" : "wallet.codes.unused")}
                  </span>
                </td>
                <td>{c.usedAt ? dayjs(c.usedAt).format("YYYY-MM-DD HH:mm") : "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {data && <PagerFor t={t} total={data.total} page={page} setPage={setPage} />}
    </div>
  );
}
