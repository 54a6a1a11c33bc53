import type { TFunction } from "i18next";
import { useState } from "react";
import { api } from "../../lib/client/api.ts";
import { Modal } from "../ui/Modal.tsx";
import { FIRST_PAGE, PagerFor, type PageState } from "../ui/Pagination.tsx";
import { useLatest } from "../accounts/hooks.ts";
import { upload } from "./transfer_io.ts";
import { formatTime } from "./types.ts";
import { TabButtons } from "../ui/TabButtons.tsx";

const EQ = "/v3/new/newEquipment";
/** Spec §5: at most 200 images per operation. */
const MAX_FILES = 200;
/** One request stays under the 1 MB API body limit. */
const CHUNK_BYTES = 900 * 1024;

/** Spec §4 upload task states. */
type TaskState = "uploading" | "success" | "failure";

interface UploadRow {
  name: string;
  imei: string | null;
  state: TaskState;
  reason: string;
}

interface StoredTask {
  id: string;
  time: string;
  name: string;
  imei: string | null;
  ok: boolean;
  reason: string;
}

interface Answer {
  name: string;
  imei: string | null;
  ok: boolean;
  reason: string;
}

/**
 * Install images (spec §5): files named IMEI(n).jpg/png, sent in chunks under the request
 * size limit, each file a task that goes uploading → success / failure with a progress bar;
 * the task list tab keeps the user's last 9999 tasks.
 */
export function ImagesDialog({ t, onClose, onDone }: {
  t: TFunction;
  onClose: () => void;
  onDone: () => void;
}) {
  const [tab, setTab] = useState<"upload" | "tasks">("upload");
  const [files, setFiles] = useState<File[]>([]);
  const [rows, setRows] = useState<UploadRow[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const [reloads, setReloads] = useState(0);

  const submit = async () => {
    if (files.length > MAX_FILES) return setError(t("devices.imagesDialog.tooMany"));
    setBusy(true);
    setError("");
    const current: UploadRow[] = files.map((f) => ({
      name: f.name,
      imei: /^(\d{15})\(/.exec(f.name)?.[1] ?? null,
      state: "uploading",
      reason: "",
    }));
    setRows([...current]);
    const send = async (from: number, to: number) => {
      const form = new FormData();
      for (const f of files.slice(from, to)) form.append("files", f);
      try {
        const answers = await upload<Answer[]>(`${EQ}/uploadInstallImages`, form);
        answers.forEach((a, i) => {
          current[from + i] = {
            name: a.name,
            imei: a.imei,
            state: a.ok ? "success" : "failure",
            reason: a.reason,
          };
        });
      } catch (e) {
        for (let i = from; i < to; i++) {
          current[i] = { ...current[i], state: "failure", reason: (e as Error).message };
        }
      }
      setRows([...current]);
    };
    let start = 0;
    let size = 0;
    for (let i = 0; i < files.length; i++) {
      if (i > start && size + files[i].size > CHUNK_BYTES) {
        await send(start, i);
        start = i;
        size = 0;
      }
      size += files[i].size;
    }
    await send(start, files.length);
    setBusy(false);
    setReloads((n) => n + 1);
    onDone();
  };

  return (
    <Modal
      title={t("devices.imagesDialog.title")}
      onClose={onClose}
      closeLabel={t("devices.detail.close")}
      width={720}
      footer={
        <>
          <button type="button" class="btn" onClick={onClose}>
            {t("devices.detail.close")}
          </button>
          {tab === "upload" && (
            <button
              type="button"
              id="images-submit"
              class="btn btn-primary"
              disabled={busy || !files.length || !!rows}
              onClick={submit}
            >
              {busy ? t("ui.loading") : t("devices.imagesDialog.upload")}
            </button>
          )}
        </>
      }
    >
      <div class="tabs small" role="tablist">
        <TabButtons
          tabs={["upload", "tasks"] as const}
          active={tab}
          onSelect={setTab}
          label={(k) => t(`devices.imagesDialog.tabs.${k}`)}
          idPrefix="images-tab-"
          tabClass="tab"
        />
      </div>
      {error && <div class="form-error" role="alert">{error}</div>}
      {tab === "upload"
        ? (
          <>
            <p class="dialog-note">{t("devices.imagesDialog.hint")}</p>
            {!rows && (
              <input
                id="images-files"
                type="file"
                multiple
                accept=".jpg,.jpeg,.png,image/jpeg,image/png"
                onChange={(e) => setFiles([...(e.target as HTMLInputElement).files ?? []])}
              />
            )}
            {files.length > MAX_FILES && (
              <div class="form-error" role="alert">{t("devices.imagesDialog.tooMany")}</div>
            )}
            {rows && <UploadProgress t={t} rows={rows} />}
          </>
        )
        : <TaskList t={t} reloads={reloads} pending={busy ? rows ?? [] : []} />}
    </Modal>
  );
}

const STATE_CLASS: Record<TaskState, string> = {
  uploading: "info",
  success: "ok",
  failure: "bad",
};

function StatePill({ t, state }: { t: TFunction; state: TaskState }) {
  return (
    <span class={`pill ${STATE_CLASS[state]}`}>{t(`devices.imagesDialog.state.${state}`)}</span>
  );
}

function TaskHead({ t, withTime }: { t: TFunction; withTime?: boolean }) {
  return (
    <thead>
      <tr>
        {withTime && <th>{t("devices.imagesDialog.time")}</th>}
        <th>{t("devices.imagesDialog.file")}</th>
        <th>{t("devices.col.imei")}</th>
        <th>{t("devices.imagesDialog.status")}</th>
        <th>{t("devices.import.reason")}</th>
      </tr>
    </thead>
  );
}

/** One file's task; `time` adds the time column of the task list. */
function TaskRow({ t, time, ...r }: UploadRow & { t: TFunction; time?: string }) {
  return (
    <tr data-task={r.state} class={r.state === "failure" ? "row-bad" : ""}>
      {time !== undefined && <td>{time}</td>}
      <td class="mono">{r.name}</td>
      <td class="mono">{r.imei ?? "—"}</td>
      <td>
        <StatePill t={t} state={r.state} />
      </td>
      <td class="bad-text">{r.reason}</td>
    </tr>
  );
}

/** This upload: a progress bar over the files and one line per file. */
function UploadProgress({ t, rows }: { t: TFunction; rows: UploadRow[] }) {
  const done = rows.filter((r) => r.state !== "uploading").length;
  const ok = rows.filter((r) => r.state === "success").length;
  const pct = rows.length ? Math.round((done / rows.length) * 100) : 0;
  return (
    <div id="upload-progress">
      <div class="progress-line">
        <div
          class="progress"
          role="progressbar"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={pct}
        >
          <div class="progress-bar" style={{ width: `${pct}%` }} />
        </div>
        <span>{t("devices.imagesDialog.progress", { done, total: rows.length })}</span>
      </div>
      <p class="result-counts">
        <span class="pill ok">{t("devices.import.succeeded", { count: ok })}</span>
        <span class={`pill ${done - ok ? "bad" : "muted"}`}>
          {t("devices.import.failed", { count: done - ok })}
        </span>
      </p>
      <div class="table-wrap result-wrap">
        <table class="data" id="upload-rows">
          <TaskHead t={t} />
          <tbody>
            {rows.map((r, i) => <TaskRow key={i} t={t} {...r} />)}
          </tbody>
        </table>
      </div>
    </div>
  );
}

/** The user's stored upload tasks (newest first, at most 9999), with files still uploading on top. */
function TaskList(
  { t, reloads, pending }: { t: TFunction; reloads: number; pending: UploadRow[] },
) {
  const [page, setPage] = useState<PageState>(FIRST_PAGE);
  const [error, setError] = useState("");
  const { data, loading } = useLatest(
    () =>
      api<{ total: number; list: StoredTask[] }>(`${EQ}/installImageTasks`, {
        pageNum: page.pageNum,
        pageSize: page.pageSize,
      }),
    [page.pageNum, page.pageSize, reloads],
    (e) => setError((e as Error).message),
  );
  const uploading = pending.filter((r) => r.state === "uploading");
  const list = data?.list ?? [];
  return (
    <div id="image-tasks">
      <p class="dialog-note">{t("devices.imagesDialog.tasksNote")}</p>
      {error && <div class="form-error" role="alert">{error}</div>}
      <div class={`table-wrap result-wrap${loading ? " is-loading" : ""}`} aria-busy={loading}>
        <table class="data">
          <TaskHead t={t} withTime />
          <tbody>
            {uploading.map((r, i) => <TaskRow key={`u${i}`} t={t} time="—" {...r} />)}
            {list.map((task) => (
              <TaskRow
                key={task.id}
                t={t}
                time={formatTime(task.time)}
                name={task.name}
                imei={task.imei}
                state={task.ok ? "success" : "failure"}
                reason={task.reason}
              />
            ))}
          </tbody>
        </table>
        {!loading && !list.length && !uploading.length && (
          <div class="empty">
            <span class="empty-icon" aria-hidden="true">▢</span>
            <p>{t("devices.imagesDialog.noTasks")}</p>
          </div>
        )}
      </div>
      <PagerFor t={t} total={data?.total ?? 0} page={page} setPage={setPage} />
    </div>
  );
}
