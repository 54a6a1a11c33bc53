import type { TFunction } from "i18next";
import { useEffect, useState } from "preact/hooks";
import { api } from "../../lib/client/api.ts";
import { Pagination } from "../ui/Pagination.tsx";
import { toast } from "../ui/Toast.tsx";
import { formatDateTime, instructionName } from "./format.ts";
import type { BatchRow } from "./types.ts";

/** The account's batches of one category: number, category, what, devices, sender, time. */
export function BatchList({ t, category, version, statusHref }: {
  t: TFunction;
  category: "command" | "workMode";
  /** Bumped after a new batch so the list reloads. */
  version: number;
  statusHref: (batchNo: string) => string;
}) {
  const [page, setPage] = useState({ pageNum: 1, pageSize: 10 });
  const [data, setData] = useState<{ total: number; list: BatchRow[] } | null>(null);
  useEffect(() => {
    api<{ total: number; list: BatchRow[] }>("/v3/new/command/batchList", { ...page, category })
      .then(setData, (e) => toast((e as Error).message, "error"));
  }, [page.pageNum, page.pageSize, version]);
  const rows = data?.list ?? [];
  return (
    <section class="panel cmd-batches">
      <h2 class="panel-title">{t(`commands.ui.batches.${category}`)}</h2>
      <div class={`table-wrap${data ? "" : " is-loading"}`}>
        <table class="data">
          <thead>
            <tr>
              <th>{t("commands.columns.batchNo")}</th>
              <th>{t("commands.columns.category")}</th>
              <th>
                {t(category === "command" ? "commands.columns.name" : "commands.columns.template")}
              </th>
              <th>{t("commands.columns.deviceCount")}</th>
              <th>{t("commands.columns.sendType")}</th>
              <th>{t("commands.columns.sender")}</th>
              <th>{t("commands.columns.createdAt")}</th>
              <th class="col-actions">{t("commands.columns.actions")}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((b) => (
              <tr key={b.batchNo}>
                <td class="mono">{b.batchNo}</td>
                <td>{t(`commands.batchCategories.${b.category}`)}</td>
                <td title={b.content}>
                  {b.category === "command" ? instructionName(t, b.name) : b.name}
                </td>
                <td>{b.deviceCount}</td>
                <td>{t(`commands.sendTypes.${b.sendType}`)}</td>
                <td>{b.senderAccount}</td>
                <td>{formatDateTime(b.createdAt)}</td>
                <td class="col-actions">
                  <a class="link-btn" href={statusHref(b.batchNo)}>
                    {t("commands.ui.viewResults")}
                  </a>
                </td>
              </tr>
            ))}
            {data && !rows.length && (
              <tr class="empty-row">
                <td colSpan={8}>{t("commands.ui.noBatches")}</td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      <Pagination
        t={t}
        total={data?.total ?? 0}
        pageNum={page.pageNum}
        pageSize={page.pageSize}
        onChange={(pageNum, pageSize) => setPage({ pageNum, pageSize })}
      />
    </section>
  );
}
