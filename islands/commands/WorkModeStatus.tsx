import {
  FilterBar,
  FilterInput,
  FilterSelect,
  useFilter,
} from "../../components/commands/FilterFields.tsx";
import { PageHead } from "../../components/commands/PageParts.tsx";
import { usePaged } from "../../components/commands/usePaged.ts";
import { DataTable } from "../../components/commands/DataTable.tsx";
import { island } from "../../lib/islands/island.tsx";
import { api } from "../../lib/client/api.ts";
import { type Lang, translator } from "../../lib/i18n/i18n.ts";
import { Toasts } from "../../components/ui/Toast.tsx";
import { StatusBadge } from "../../components/commands/StatusBadge.tsx";
import { formatDateTime } from "../../components/commands/format.ts";

interface Task {
  id: string;
  batchNo: string;
  imei: string;
  templateName: string;
  cycle: number;
  cycles: number;
  state: string;
  commandId: string;
  senderAccount: string;
  cycleStartedAt: string | null;
  cycleEndsAt: string | null;
  endReason: string | null;
  createdAt: string;
}

const STATES = ["waiting", "executing", "aboutToEnd", "ended"];

/** /workingModeStatus: each device's working-mode task and its state. */
function WorkModeStatus({ lang, batchNo }: { lang: Lang; batchNo: string }) {
  const t = translator(lang);
  const { draft, filter, setFilter, bind } = useFilter({ imei: "", state: "", batchNo });
  const { rows, loading, paging, firstPage } = usePaged<Task>((page) => {
    const body: Record<string, unknown> = { ...page };
    if (filter.imei.trim()) body.imei = filter.imei.trim();
    if (filter.state) body.state = filter.state;
    if (filter.batchNo.trim()) body.batchNo = filter.batchNo.trim();
    return api("/v3/new/workMode/tasks", body);
  }, [filter]);
  return (
    <div class="cmd-page">
      <PageHead t={t} page="workingModeStatus" />
      <FilterBar
        onSearch={() => {
          setFilter(draft);
          firstPage();
        }}
      >
        <FilterInput label={t("commands.columns.imei")} {...bind("imei")} />
        <FilterSelect
          label={t("commands.columns.state")}
          {...bind("state")}
          all={t("commands.ui.allStates")}
          options={STATES.map((s) => [s, t(`commands.taskStates.${s}`)])}
        />
        <FilterInput label={t("commands.columns.batchNo")} {...bind("batchNo")} />
        <button type="submit" class="btn btn-primary">{t("commands.ui.search")}</button>
      </FilterBar>
      <section class="panel">
        <DataTable
          t={t}
          columns={9}
          loading={loading}
          empty={t("commands.ui.noTasks")}
          count={rows.length}
          head={
            <>
              <th>{t("commands.columns.imei")}</th>
              <th>{t("commands.columns.template")}</th>
              <th>{t("commands.columns.cycle")}</th>
              <th>{t("commands.columns.state")}</th>
              <th>{t("commands.columns.cycleEndsAt")}</th>
              <th>{t("commands.columns.endReason")}</th>
              <th>{t("commands.columns.batchNo")}</th>
              <th>{t("commands.columns.sender")}</th>
              <th>{t("commands.columns.createdAt")}</th>
            </>
          }
          paging={paging}
        >
          {rows.map((x) => (
            <tr key={x.id} data-imei={x.imei}>
              <td class="mono">{x.imei}</td>
              <td>{x.templateName}</td>
              <td>{x.cycle} / {x.cycles}</td>
              <td>
                <StatusBadge t={t} status={x.state} kind="taskStates" />
              </td>
              <td>
                {x.cycleEndsAt
                  ? formatDateTime(x.cycleEndsAt)
                  : x.cycleStartedAt
                  ? t("commands.limits.unlimited")
                  : "—"}
              </td>
              <td>{x.endReason ? t(`commands.endReasons.${x.endReason}`) : "—"}</td>
              <td class="mono">
                <a href={`/commandStatus?batchNo=${encodeURIComponent(x.batchNo)}`}>
                  {x.batchNo}
                </a>
              </td>
              <td>{x.senderAccount}</td>
              <td>{formatDateTime(x.createdAt)}</td>
            </tr>
          ))}
        </DataTable>
      </section>
      <Toasts />
    </div>
  );
}

export default island("commands/WorkModeStatus", WorkModeStatus);
