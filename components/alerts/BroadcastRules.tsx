import type { TFunction } from "i18next";
import { useEffect, useState } from "react";
import { api, ApiError } from "../../lib/client/api.ts";
import { toast } from "../ui/Toast.tsx";
import { DataTable } from "../commands/DataTable.tsx";
import { Confirm } from "../commands/Confirm.tsx";
import { RowActions } from "../commands/PageParts.tsx";
import { DEFAULT_PAGE_SIZE } from "../ui/Pagination.tsx";
import type { AccountRef } from "../accounts/types.ts";
import { type BroadcastRule, MAX_RULES } from "../../modules/alerts/broadcast.ts";
import { BroadcastForm, unitLabel } from "./BroadcastForm.tsx";

/**
 * /settingAlert → Auto broadcast: the account's rules (at most 20) in a paged table, with the
 * create / edit dialog and delete confirmation. The API returns the whole (small) list, so
 * paging happens here.
 */
export function BroadcastRules({ t, root }: { t: TFunction; root: AccountRef }) {
  const [rules, setRules] = useState<BroadcastRule[] | null>(null);
  const [page, setPage] = useState({ pageNum: 1, pageSize: DEFAULT_PAGE_SIZE });
  const [editing, setEditing] = useState<BroadcastRule | "new" | null>(null);
  const [removing, setRemoving] = useState<BroadcastRule | null>(null);
  const fail = (e: unknown) =>
    toast(e instanceof ApiError ? e.message : t("ui.requestFailed"), "error");
  const load = () =>
    api<BroadcastRule[]>("/v3/new/alarm/broadcast/list", {}).then(setRules).catch(fail);
  useEffect(() => {
    load();
  }, []);

  const remove = async (r: BroadcastRule) => {
    setRemoving(null);
    try {
      await api("/v3/new/alarm/broadcast/delete", { id: r.id });
      toast(t("alerts.broadcast.deleted"));
      load();
    } catch (e) {
      fail(e);
    }
  };
  const list = rules ?? [];
  const start = (page.pageNum - 1) * page.pageSize;
  const shown = list.slice(start, start + page.pageSize);
  // Deleting the last row of the last page moves back a page.
  if (!shown.length && page.pageNum > 1) setPage({ ...page, pageNum: page.pageNum - 1 });
  const full = list.length >= MAX_RULES;
  return (
    <div class="form-section broadcast-rules">
      <div class="toolbar">
        <p class="muted grow">{t("alerts.broadcast.intro")}</p>
        <span class="muted" data-testid="rule-count">
          {t("alerts.broadcast.count", { n: list.length, max: MAX_RULES })}
        </span>
        <button
          type="button"
          id="broadcast-add"
          class="btn btn-primary"
          disabled={!rules || full}
          title={full ? t("alerts.broadcast.full", { max: MAX_RULES }) : undefined}
          onClick={() => setEditing("new")}
        >
          + {t("alerts.broadcast.add")}
        </button>
      </div>
      <DataTable
        t={t}
        columns={9}
        loading={!rules}
        empty={t("alerts.broadcast.empty")}
        count={shown.length}
        class="broadcast-table"
        head={
          <>
            {["name", "alarmType", "trigger", "hours", "speed", "devices", "content", "enabled"]
              .map((k) => <th key={k}>{t(`alerts.broadcast.columns.${k}`)}</th>)}
            <th>{t("ui.actions")}</th>
          </>
        }
        paging={{
          total: list.length,
          ...page,
          onChange: (pageNum, pageSize) => setPage({ pageNum, pageSize }),
        }}
      >
        {!rules && (
          <tr>
            <td colSpan={9} class="table-loading">{t("ui.loading")}</td>
          </tr>
        )}
        {shown.map((r) => (
          <tr key={r.id} class={r.enabled ? undefined : "muted"}>
            <td>{r.name}</td>
            <td>{t(`alerts.type.${r.alarmType}`)}</td>
            <td>
              {t("alerts.broadcast.trigger", {
                count: r.count,
                unit: unitLabel(t, r.unitMinutes),
              })}
            </td>
            <td class="mono">{r.startTime}–{r.endTime}</td>
            <td>{speedRange(t, r)}</td>
            <td>
              {r.imeis.length
                ? t("alerts.broadcast.deviceCount", { count: r.imeis.length })
                : t("alerts.broadcast.allDevices")}
            </td>
            <td class="ellipsis" title={r.content}>{r.content}</td>
            <td>
              <span class={`badge${r.enabled ? " ok" : ""}`}>
                {t(r.enabled ? "alerts.broadcast.on" : "alerts.broadcast.off")}
              </span>
            </td>
            <RowActions t={t} onEdit={() => setEditing(r)} onDelete={() => setRemoving(r)} />
          </tr>
        ))}
      </DataTable>
      {editing && (
        <BroadcastForm
          t={t}
          root={root}
          rule={editing === "new" ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            toast(t("ui.saved"));
            load();
          }}
        />
      )}
      {removing && (
        <Confirm
          t={t}
          title={t("alerts.broadcast.deleteTitle")}
          text={t("alerts.broadcast.deleteConfirm", { name: removing.name })}
          onCancel={() => setRemoving(null)}
          onConfirm={() => remove(removing)}
        />
      )}
    </div>
  );
}

function speedRange(t: TFunction, r: BroadcastRule): string {
  if (r.minSpeed === null && r.maxSpeed === null) return t("alerts.broadcast.anySpeed");
  if (r.maxSpeed === null) return `≥ ${r.minSpeed} km/h`;
  if (r.minSpeed === null) return `≤ ${r.maxSpeed} km/h`;
  return `${r.minSpeed}–${r.maxSpeed} km/h`;
}
