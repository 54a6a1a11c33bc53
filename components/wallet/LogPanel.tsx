import type { TFunction } from "i18next";
import { useEffect, useRef, useState } from "react";
import dayjs from "dayjs";
import { api } from "../../lib/client/api.ts";
import type { AccountRef } from "../accounts/types.ts";
import { download } from "../devices/transfer_io.ts";
import { FIRST_PAGE, PagerFor } from "../ui/Pagination.tsx";
import { TabButtons } from "../ui/TabButtons.tsx";
import { toast } from "../ui/Toast.tsx";
import { cardsText, coinText, type LogRow, type LogView } from "./types.ts";

const VIEWS: readonly LogView[] = ["consumption", "allocation", "business"];

/** What a row is about: devices renewed, the package, the card code. */
function detail(r: LogRow, t: TFunction): string {
  if (r.devices?.length) {
    const imeis = r.devices.slice(0, 3).map((d) => d.imei).join(", ");
    return t("wallet.log.devices", {
      count: r.devices.length,
      months: r.term ?? "",
      imeis: r.devices.length > 3 ? `${imeis} …` : imeis,
    });
  }
  if (r.packageName) return t("wallet.log.package", { name: r.packageName, sms: r.smsCount ?? 0 });
  return r.code ? t("wallet.log.code", { code: r.code }) : "";
}

/** The consumption, allocation and business logs of the account chosen in the tree. */
export function LogPanel(
  { t, target, version }: { t: TFunction; target: AccountRef; version: number },
) {
  const [view, setView] = useState<LogView>("business");
  const [from, setFrom] = useState("");
  const [to, setTo] = useState("");
  const [page, setPage] = useState(FIRST_PAGE);
  const [data, setData] = useState<{ total: number; list: LogRow[] } | null>(null);
  const filter = () => ({
    view,
    userId: target.id,
    ...(from ? { startTime: dayjs(from).startOf("day").toISOString() } : {}),
    ...(to ? { endTime: dayjs(to).add(1, "day").startOf("day").toISOString() } : {}),
  });
  // Only the newest request's answer is shown (a slower earlier one must not overwrite it).
  const latest = useRef(0);
  const load = () => {
    const mine = ++latest.current;
    setData(null);
    api<{ total: number; list: LogRow[] }>("/v3/new/wallet/log", { ...filter(), ...page })
      .then(
        (d) => mine === latest.current && setData(d),
        (e) => toast((e as Error).message, "error"),
      );
  };
  useEffect(load, [view, target.id, page, version]);
  const name = (c: string) => t(`wallet.cardTypes.${c}`);
  return (
    <div class="wallet-log">
      <div class="tabs small" role="tablist">
        <TabButtons
          tabs={VIEWS}
          active={view}
          tabClass="tab"
          idPrefix="log-view-"
          label={(v) => t(`wallet.log.views.${v}`)}
          onSelect={(v) => {
            setView(v);
            setPage(FIRST_PAGE);
          }}
        />
      </div>
      <div class="toolbar wallet-log-filter">
        <span class="scope-chip">
          {t("wallet.log.of", { name: target.nickName || target.account })}
        </span>
        <label class="inline-field">
          {t("wallet.log.from")}
          <input
            class="input"
            type="date"
            id="log-from"
            value={from}
            onInput={(e) => setFrom((e.target as HTMLInputElement).value)}
          />
        </label>
        <label class="inline-field">
          {t("wallet.log.to")}
          <input
            class="input"
            type="date"
            id="log-to"
            value={to}
            onInput={(e) => setTo((e.target as HTMLInputElement).value)}
          />
        </label>
        <button
          type="button"
          class="btn btn-primary"
          id="log-search"
          onClick={() => (page.pageNum === 1 ? load() : setPage(FIRST_PAGE))}
        >
          {t("wallet.log.search")}
        </button>
        <button
          type="button"
          class="btn"
          id="log-export"
          onClick={() =>
            download("/v3/new/wallet/log/export", filter()).catch((e) =>
              toast((e as Error).message, "error")
            )}
        >
          ⤓ {t("wallet.log.export")}
        </button>
      </div>
      <div class="table-wrap">
        <table class="data" id="log-table">
          <thead>
            <tr>
              <th>{t("wallet.log.time")}</th>
              <th>{t("wallet.log.kind")}</th>
              <th class="num">{t("wallet.log.coins")}</th>
              <th>{t("wallet.log.cards")}</th>
              <th>{t("wallet.log.counterpart")}</th>
              <th>{t("wallet.log.detail")}</th>
              <th>{t("wallet.log.operator")}</th>
            </tr>
          </thead>
          <tbody>
            {!data && (
              <tr>
                <td colSpan={7} class="empty">{t("ui.loading")}</td>
              </tr>
            )}
            {data?.list.length === 0 && (
              <tr>
                <td colSpan={7} class="empty">{t("ui.noData")}</td>
              </tr>
            )}
            {data?.list.map((r) => (
              <tr key={r.id}>
                <td class="nowrap">{dayjs(r.time).format("YYYY-MM-DD HH:mm:ss")}</td>
                <td>
                  <span class={`pill kind-${r.kind}`}>{t(`wallet.kinds.${r.kind}`)}</span>
                </td>
                <td class={`num ${r.coins < 0 ? "neg" : r.coins > 0 ? "pos" : ""}`}>
                  {r.coins ? (r.coins > 0 ? "+" : "") + coinText(r.coins) : "—"}
                </td>
                <td>{cardsText(r.cards, name) || "—"}</td>
                <td>{r.counterpart || "—"}</td>
                <td class="wallet-detail">{detail(r, t) || "—"}</td>
                <td>{r.operator}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {data && <PagerFor t={t} total={data.total} page={page} setPage={setPage} />}
    </div>
  );
}
