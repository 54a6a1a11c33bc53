import type { TFunction } from "i18next";
import { api } from "../../lib/client/api.ts";
import { DataTable } from "./DataTable.tsx";
import { usePaged } from "./usePaged.ts";
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
  const { data, rows, paging } = usePaged<BatchRow>(
    (page) => api("/v3/new/command/batchList", { ...page, category }),
    [version],
  );
  return (
    <section class="panel cmd-batches">
      <h2 class="panel-title">{t(`commands.ui.batches.${category}`)}</h2>
      <DataTable
        t={t}
        columns={8}
        loading={!data}
        empty={t("commands.ui.noBatches")}
        count={rows.length}
        head={
          <>
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
          </>
        }
        paging={paging}
      >
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
      </DataTable>
    </section>
  );
}
