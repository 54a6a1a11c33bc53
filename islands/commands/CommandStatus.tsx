import { Confirm } from "../../components/commands/Confirm.tsx";
import { COMMAND_STATUSES } from "../../modules/commands/statuses.ts";
import {
  FilterBar,
  FilterInput,
  FilterSelect,
  useFilter,
} from "../../components/commands/FilterFields.tsx";
import { PageHead } from "../../components/commands/PageParts.tsx";
import { usePaged } from "../../components/commands/usePaged.ts";
import { DataTable } from "../../components/commands/DataTable.tsx";
import { fieldMsg } from "../../components/commands/format.ts";
import { useState } from "react";
import { island } from "../../lib/islands/island.tsx";
import { api } from "../../lib/client/api.ts";
import { type Lang, translator } from "../../lib/i18n/i18n.ts";
import { toast, Toasts } from "../../components/ui/Toast.tsx";
import { StatusBadge } from "../../components/commands/StatusBadge.tsx";
import { SendCommandDialog } from "../../components/commands/SendCommandDialog.tsx";
import {
  formatDateTime,
  instructionName,
  LIVE_STATUSES,
  replyText,
} from "../../components/commands/format.ts";
import type { CommandRow } from "../../components/commands/types.ts";

interface Filter {
  imei: string;
  status: string;
  sendType: string;
  batchNo: string;
  start: string;
  end: string;
}

const EMPTY: Filter = { imei: "", status: "", sendType: "", batchNo: "", start: "", end: "" };

/** The filter as API fields (empty ones left out, local date-times as ISO). */
function filterBody(f: Filter): Record<string, string> {
  const out: Record<string, string> = {};
  if (f.imei.trim()) out.imei = f.imei.trim();
  if (f.status) out.status = f.status;
  if (f.sendType) out.sendType = f.sendType;
  if (f.batchNo.trim()) out.batchNo = f.batchNo.trim();
  if (f.start) out.startTime = new Date(f.start).toISOString();
  if (f.end) out.endTime = new Date(f.end).toISOString();
  return out;
}

/** /commandStatus: every command with status, phases and reply; filters, export, cancel. */
function CommandStatus(
  { lang, batchNo, canSend }: { lang: Lang; batchNo: string; canSend: boolean },
) {
  const t = translator(lang);
  const { draft, setDraft, filter, setFilter, bind } = useFilter<Filter>({ ...EMPTY, batchNo });
  const [confirmAll, setConfirmAll] = useState(false);
  const [error, setError] = useState("");
  const [sendTo, setSendTo] = useState<string | null>(null);

  // Keeps watching while commands on this page are still on their way.
  const { rows, loading, paging, firstPage, reload } = usePaged<CommandRow>(
    (page) => api("/v3/new/command/status", { ...filterBody(filter), ...page }),
    [filter],
    { pollWhile: (list) => list.some((r) => LIVE_STATUSES.has(r.status)) },
  );

  const search = () => {
    if (draft.start && draft.end && draft.start > draft.end) {
      return setError(t("errors.startAfterEnd"));
    }
    if (draft.imei.trim() && !/^\d{1,15}$/.test(draft.imei.trim())) {
      return setError(fieldMsg(t, "validation.imeiSearch"));
    }
    setError("");
    setFilter(draft);
    firstPage();
  };
  const exportHref = (format: "xlsx" | "csv") =>
    `/v3/new/command/status/export?${new URLSearchParams({
      ...filterBody(filter),
      lang,
      format,
    })}`;
  const cancel = async (imei: string) => {
    try {
      await api("/v3/new/command/cancel", { imei });
      toast(t("commands.ui.cancelled"));
      reload();
    } catch (e) {
      toast((e as Error).message, "error");
    }
  };
  const cancelAll = async () => {
    try {
      const r = await api<{ cancelled: number }>("/v3/new/command/cancelAll", {});
      toast(t("commands.ui.cancelledAll", { count: r.cancelled }));
      setConfirmAll(false);
      reload();
    } catch (e) {
      toast((e as Error).message, "error");
    }
  };

  return (
    <div class="cmd-page">
      <PageHead t={t} page="commandStatus" />
      <StatusFilters
        t={t}
        bind={bind}
        onSearch={search}
        onReset={() => {
          setDraft(EMPTY);
          setFilter(EMPTY);
          setError("");
        }}
        exportHref={exportHref}
        onCancelAll={canSend ? () => setConfirmAll(true) : null}
        error={error}
      />
      <section class="panel">
        <DataTable
          t={t}
          columns={9}
          loading={loading}
          empty={t("commands.ui.noCommands")}
          count={rows.length}
          class="cmd-table"
          head={
            <>
              <th>{t("commands.columns.imei")}</th>
              <th>{t("commands.columns.name")} / {t("commands.columns.content")}</th>
              <th>{t("commands.columns.sendType")} / {t("commands.columns.platform")}</th>
              <th>{t("commands.columns.status")}</th>
              <th>{t("commands.columns.sentAt")}</th>
              <th>{t("commands.columns.batchNo")}</th>
              <th>{t("commands.columns.phases")}</th>
              <th>{t("commands.columns.reply")}</th>
              <th class="col-actions">{t("commands.columns.actions")}</th>
            </>
          }
          paging={paging}
        >
          {rows.map((r) => (
            <CommandStatusRow
              key={r.id}
              t={t}
              r={r}
              canSend={canSend}
              onSendAgain={() => setSendTo(r.imei)}
              onCancel={() => cancel(r.imei)}
            />
          ))}
        </DataTable>
      </section>
      {sendTo && (
        <SendCommandDialog
          t={t}
          imei={sendTo}
          onClose={() => {
            setSendTo(null);
            reload();
          }}
        />
      )}
      {confirmAll && (
        <Confirm
          t={t}
          title={t("commands.ui.cancelAll")}
          text={t("commands.ui.cancelAllConfirm")}
          onCancel={() => setConfirmAll(false)}
          onConfirm={cancelAll}
        />
      )}
      <Toasts />
    </div>
  );
}

type Translate = ReturnType<typeof translator>;

/** Filters, reset, exports and "cancel all" above the status table. */
function StatusFilters(
  { t, bind, onSearch, onReset, exportHref, onCancelAll, error }: {
    t: Translate;
    bind: ReturnType<typeof useFilter<Filter>>["bind"];
    onSearch: () => void;
    onReset: () => void;
    exportHref: (format: "xlsx" | "csv") => string;
    /** Null when the user may not send (nor cancel) commands. */
    onCancelAll: (() => void) | null;
    error: string;
  },
) {
  return (
    <FilterBar onSearch={onSearch}>
      <FilterInput label={t("commands.columns.imei")} {...bind("imei")} />
      <FilterSelect
        label={t("commands.columns.status")}
        {...bind("status")}
        all={t("commands.ui.allStatuses")}
        options={COMMAND_STATUSES.map((s) => [s, t(`commands.statuses.${s}`)])}
      />
      <FilterSelect
        label={t("commands.columns.sendType")}
        {...bind("sendType")}
        all={t("commands.ui.allSendTypes")}
        options={["online", "offline"].map((s) => [s, t(`commands.sendTypes.${s}`)])}
      />
      <FilterInput label={t("commands.columns.batchNo")} {...bind("batchNo")} />
      <FilterInput type="datetime-local" label={t("commands.ui.from")} {...bind("start")} />
      <FilterInput type="datetime-local" label={t("commands.ui.to")} {...bind("end")} />
      <button type="submit" class="btn btn-primary">{t("commands.ui.search")}</button>
      <button
        type="button"
        class="btn"
        onClick={onReset}
      >
        {t("commands.ui.reset")}
      </button>
      <span class="grow" />
      <a class="btn" href={exportHref("xlsx")} download>{t("commands.ui.export")}</a>
      <a class="btn" href={exportHref("csv")} download>{t("commands.ui.exportCsv")}</a>
      {onCancelAll && (
        <button type="button" class="btn" onClick={onCancelAll}>
          {t("commands.ui.cancelAll")}
        </button>
      )}
      {error && <p class="form-error" role="alert">{error}</p>}
    </FilterBar>
  );
}

/** One command: content, delivery, status, phases, reply, and send again / cancel. */
function CommandStatusRow(
  { t, r, canSend, onSendAgain, onCancel }: {
    t: Translate;
    r: CommandRow;
    canSend: boolean;
    onSendAgain: () => void;
    onCancel: () => void;
  },
) {
  return (
    <tr data-imei={r.imei} data-status={r.status}>
      <td class="mono">{r.imei}</td>
      <td class="cmd-content" title={r.content}>
        {instructionName(t, r.name)}
        <div class="mono sub">{r.content}</div>
      </td>
      <td>
        {t(`commands.sendTypes.${r.sendType}`)}
        <div class="sub">{t(`commands.platforms.${r.platform}`)}</div>
      </td>
      <td>
        <StatusBadge t={t} status={r.status} />
      </td>
      <td class="nowrap">{formatDateTime(r.sentAt ?? r.createdAt)}</td>
      <td class="mono">{r.batchNo ?? "—"}</td>
      <td>
        <ol class="cmd-phases">
          {r.phases.map((p, i) => (
            <li key={i} title={formatDateTime(p.at)}>
              {t(`commands.statuses.${p.status}`)}
            </li>
          ))}
        </ol>
      </td>
      <td class="cmd-reply" title={r.reply ?? ""}>
        <div class="cmd-clamp">{replyText(t, r.reply)}</div>
      </td>
      <td class="col-actions">
        {canSend && (
          <button
            type="button"
            class="link-btn"
            onClick={onSendAgain}
          >
            {t("commands.ui.sendAgain")}
          </button>
        )}
        {canSend && r.status === "toBeSent" && (
          <button
            type="button"
            class="link-btn danger"
            onClick={onCancel}
          >
            {t("commands.ui.cancel")}
          </button>
        )}
      </td>
    </tr>
  );
}

export default island("commands/CommandStatus", CommandStatus);
