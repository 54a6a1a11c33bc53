import { useMemo, useState } from "react";
import { island } from "../../../lib/islands/island.tsx";
import { type Lang, translator } from "../../../lib/i18n/i18n.ts";
import { toast, Toasts } from "../../../components/ui/Toast.tsx";
import { Pagination } from "../../../components/ui/Pagination.tsx";
import { confirmDelete, LoadError, useListPage } from "../../../components/fleet/list_data.tsx";
import { DoneDialog, ReminderForm } from "../../../components/fleet/reminders/ReminderForm.tsx";
import type {
  Reminder,
  ReminderState,
  ReminderStatus,
} from "../../../modules/fleet/reminders_model.ts";

type Row = Reminder & { status: ReminderStatus; deviceName: string };
type T = ReturnType<typeof translator>;

/**
 * /fleetReminder: the enterprise's reminders, overdue first, each with its state, what is left
 * and the last maintenance; add, edit, mark done (the next period starts), delete.
 */
function ReminderList({ lang }: { lang: Lang }) {
  const t = useMemo(() => translator(lang), [lang]);
  const [page, setPage] = useState({ pageNum: 1, pageSize: 20 });
  const [state, setState] = useState<"" | ReminderState>("");
  const [editing, setEditing] = useState<Row | null | "new">(null);
  const [doing, setDoing] = useState<Row | null>(null);
  const { data, error, load } = useListPage<Row>("/v3/new/fleet/reminder/list", {
    ...page,
    ...(state ? { state } : {}),
  }, [page.pageNum, page.pageSize, state]);
  const remove = (r: Row) =>
    confirmDelete(
      t("fleetReminders.confirmDelete", { name: r.name }),
      "/v3/new/fleet/reminder/delete",
      r.id,
      t("fleetReminders.deleted"),
      load,
    );
  if (error) return <LoadError message={error} />;
  return (
    <div class="fr-page">
      <div class="fr-head">
        <h1>{t("fleetReminders.title")}</h1>
        <button type="button" class="btn btn-primary" id="fr-add" onClick={() => setEditing("new")}>
          + {t("fleetReminders.add")}
        </button>
      </div>
      <div class="fr-filter" role="group">
        {(["", "overdue", "dueSoon", "ok"] as const).map((s) => (
          <button
            type="button"
            key={s}
            class={state === s ? "on" : ""}
            onClick={() => {
              setPage({ ...page, pageNum: 1 });
              setState(s);
            }}
          >
            {s ? t(`fleetReminders.state.${s}`) : t("fleetReminders.all")}
          </button>
        ))}
      </div>
      {data && data.list.length === 0 && (
        <div class="empty fr-empty">{t("fleetReminders.empty")}</div>
      )}
      <div class="fr-list">
        {data?.list.map((r) => (
          <ReminderCard
            key={r.id}
            t={t}
            r={r}
            edit={() => setEditing(r)}
            done={() => setDoing(r)}
            remove={() => remove(r)}
          />
        ))}
      </div>
      {data && (
        <Pagination
          t={t}
          total={data.total}
          pageNum={page.pageNum}
          pageSize={page.pageSize}
          onChange={(pageNum: number, pageSize: number) => setPage({ pageNum, pageSize })}
        />
      )}
      {editing && (
        <ReminderForm
          t={t}
          editing={editing === "new" ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            toast(t("fleetReminders.saved"));
            load();
          }}
        />
      )}
      {doing && (
        <DoneDialog
          t={t}
          reminder={doing}
          onClose={() => setDoing(null)}
          onSaved={() => {
            setDoing(null);
            toast(t("fleetReminders.doneSaved"));
            load();
          }}
        />
      )}
      <Toasts />
    </div>
  );
}

function ReminderCard(
  { t, r, edit, done, remove }: {
    t: T;
    r: Row;
    edit: () => void;
    done: () => void;
    remove: () => void;
  },
) {
  const s = r.status;
  const unit = r.intervalKind === "mileage" ? "km" : "h";
  const due = s.dueDate
    ? t("fleetReminders.due.date", { date: s.dueDate })
    : s.remaining! <= 0
    ? t(`fleetReminders.due.over_${unit}`, { n: -s.remaining! })
    : t(`fleetReminders.due.left_${unit}`, { n: s.remaining! });
  const interval = t(`fleetReminders.interval.${r.intervalKind}`, {
    every: r.every,
    unit: t(`fleetReminders.unit.${r.unit}`),
  });
  // How far through the period: the bar under the card.
  const share = s.dueDate
    ? progressByDate(s.periodStart, s.dueDate)
    : Math.min(1, Math.max(0, (s.used ?? 0) / r.every));
  return (
    <article class={`fr-card panel ${s.state}`} data-testid="reminder-card">
      <div class="fr-main">
        <div class="fr-title">
          <h3>{r.name}</h3>
          <span class="fr-type">{t(`fleetReminders.type.${r.type}`)}</span>
        </div>
        <div class="fr-meta">
          <span>{r.deviceName || t("fleetReminders.fields.noVehicle")}</span>
          <span>{interval}</span>
          <span>
            {r.lastDone
              ? t("fleetReminders.last", { date: r.lastDone })
              : t("fleetReminders.never")}
          </span>
        </div>
        <div class="fr-bar" aria-hidden="true">
          <i style={{ width: `${Math.round(share * 100)}%` }} />
        </div>
      </div>
      <div class="fr-state">
        <span class={`fr-chip ${s.state}`}>{t(`fleetReminders.state.${s.state}`)}</span>
        <span class="fr-due">{due}</span>
      </div>
      <div class="fr-actions">
        <button type="button" class="btn btn-primary" onClick={done}>
          {t("fleetReminders.done")}
        </button>
        <button type="button" class="btn" onClick={edit}>{t("fleetReminders.edit")}</button>
        <button type="button" class="btn btn-danger" onClick={remove}>
          {t("fleetReminders.delete")}
        </button>
      </div>
    </article>
  );
}

function progressByDate(start: string, due: string): number {
  const a = Date.parse(start), b = Date.parse(due), now = Date.now();
  return b > a ? Math.min(1, Math.max(0, (now - a) / (b - a))) : 1;
}

export default island("fleet/reminders/ReminderList", ReminderList);
