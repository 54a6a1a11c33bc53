import { useEffect, useState } from "react";
import { island } from "../../lib/islands/island.tsx";
import { api, ApiError } from "../../lib/client/api.ts";
import { type Lang, translator } from "../../lib/i18n/i18n.ts";
import { Modal } from "../../components/ui/Modal.tsx";
import { Field } from "../../components/ui/Field.tsx";
import { PagerFor, usePagedSearch } from "../../components/ui/Pagination.tsx";
import { toast, Toasts } from "../../components/ui/Toast.tsx";
import { ALERT_TYPES } from "../../modules/alerts/types.ts";
import { alertDetail, formatTime } from "../../components/alerts/format.ts";
import { AlertMediaThumb, useAlertMedia } from "../../components/video/AlertMedia.tsx";
import type { EventMediaRow } from "../../modules/video/model.ts";

export interface AlertRow {
  id: string;
  imei: string;
  deviceName: string;
  /** The device's driver at the alarm's time (fleet), "" when none is known. */
  driverName?: string;
  type: string;
  time: number;
  lat: number | null;
  lng: number | null;
  /** Where the alarm happened (spec alert address, stored when it was raised). */
  address?: string;
  speed: number | null;
  read: 0 | -1;
  processed: boolean;
  pushed?: boolean;
  handler?: string;
  content?: string;
  fenceName?: string;
  detail?: Record<string, string | number>;
  mapUrl: string;
}

type Read = "all" | 0 | -1;
const DAY = 86_400_000;
const localInput = (ms: number) =>
  new Date(ms - new Date().getTimezoneOffset() * 60_000).toISOString().slice(0, 16);

type Translate = ReturnType<typeof translator>;
type AlertFilters = {
  type: string;
  imei: string;
  start: string;
  end: string;
  read: Read;
  processed: string;
};
type AlertPage = { total: number; unread: number; list: AlertRow[] };

/** Alert centre: filters, list, processing, read state, jump to the map. */
function AlertCenter({ lang }: { lang: Lang }) {
  const t = translator(lang);
  const list = useAlertList(t);
  const { data, checked, load } = list;
  const [processing, setProcessing] = useState<AlertRow | null>(null);

  return (
    <div class="panel alert-center">
      <div class="panel-title">
        <h1>{t("alerts.center.title")}</h1>
        {data && <span class="badge">{t("alerts.center.unread", { n: data.unread })}</span>}
      </div>
      <AlertFilterBar
        t={t}
        filters={list.filters}
        setF={list.setF}
        onSearch={list.search}
      />
      <div class="toolbar ac-bulk">
        <span class="muted">{t("alerts.center.selected", { n: checked.size })}</span>
        <span class="grow" />
        <button type="button" class="btn" disabled={!checked.size} onClick={() => list.mark(0)}>
          {t("alerts.center.markRead")}
        </button>
        <button type="button" class="btn" disabled={!checked.size} onClick={() => list.mark(-1)}>
          {t("alerts.center.markUnread")}
        </button>
        <button type="button" class="btn" onClick={list.markAll}>
          {t("alerts.center.markAllRead")}
        </button>
      </div>
      <AlertTable
        t={t}
        data={data}
        loading={list.loading}
        checked={checked}
        setChecked={list.setChecked}
        onProcess={setProcessing}
      />
      <PagerFor t={t} total={data?.total ?? 0} page={list.page} setPage={list.setPage} />
      {processing && (
        <ProcessDialog
          t={t}
          alert={processing}
          onClose={() => setProcessing(null)}
          onDone={() => {
            setProcessing(null);
            toast(t("alerts.center.processedDone"));
            load();
          }}
        />
      )}
      <Toasts />
    </div>
  );
}

/** The alert list's filters, page, loaded rows and ticked rows, with the read-state actions. */
function useAlertList(t: Translate) {
  const [filters, setFilters] = useState<AlertFilters>({
    type: "",
    imei: "",
    start: localInput(Date.now() - 7 * DAY),
    end: localInput(Date.now() + 60_000),
    read: "all" as Read,
    processed: "all",
  });
  const { page, setPage, searches, search } = usePagedSearch();
  const [data, setData] = useState<AlertPage | null>(null);
  const [loading, setLoading] = useState(true);
  const [checked, setChecked] = useState<Set<string>>(new Set());
  const fail = (e: unknown) =>
    toast(e instanceof ApiError ? e.message : t("ui.requestFailed"), "error");

  const query = () => ({
    ...(filters.type ? { types: [filters.type] } : {}),
    ...(filters.imei.trim() ? { imeis: [filters.imei.trim()] } : {}),
    startTime: new Date(filters.start).toISOString(),
    endTime: new Date(filters.end).toISOString(),
    read: filters.read,
    processed: filters.processed,
  });
  const load = async () => {
    setLoading(true);
    try {
      setData(await api("/v3/new/alarm/list", { ...query(), ...page }));
      setChecked(new Set());
    } catch (e) {
      fail(e);
    } finally {
      setLoading(false);
    }
  };
  useEffect(() => {
    load();
  }, [page.pageNum, page.pageSize, searches]);

  const refs = (rows: AlertRow[]) => rows.map(({ imei, time, id }) => ({ imei, time, id }));
  const mark = async (read: 0 | -1) => {
    const rows = data?.list.filter((a) => checked.has(a.id)) ?? [];
    if (!rows.length) return;
    try {
      await api("/v3/new/alarm/mark", { alerts: refs(rows), read });
      load();
    } catch (e) {
      fail(e);
    }
  };
  const markAll = async () => {
    try {
      const r = await api<{ changed: number }>("/v3/new/alarm/markAllRead", query());
      toast(t("alerts.center.markedAll", { n: r.changed }));
      load();
    } catch (e) {
      fail(e);
    }
  };
  const setF = (k: keyof AlertFilters, v: string) =>
    setFilters({ ...filters, [k]: k === "read" ? (v === "all" ? "all" : Number(v)) : v });
  return {
    filters,
    setF,
    page,
    setPage,
    search,
    data,
    loading,
    checked,
    setChecked,
    load,
    mark,
    markAll,
  };
}

function AlertFilterBar(
  { t, filters, setF, onSearch }: {
    t: Translate;
    filters: AlertFilters;
    setF: (k: keyof AlertFilters, v: string) => void;
    onSearch: () => void;
  },
) {
  return (
    <form
      class="toolbar ac-filters"
      onSubmit={(e) => {
        e.preventDefault();
        onSearch();
      }}
    >
      <select
        class="input"
        aria-label={t("alerts.center.type")}
        value={filters.type}
        onChange={(e) => setF("type", (e.target as HTMLSelectElement).value)}
      >
        <option value="">{t("alerts.center.allTypes")}</option>
        {ALERT_TYPES.map((x) => <option key={x} value={x}>{t(`alerts.type.${x}`)}</option>)}
      </select>
      <input
        class="input"
        name="imei"
        inputMode="numeric"
        maxLength={15}
        placeholder={t("alerts.center.imei")}
        aria-label={t("alerts.center.imei")}
        value={filters.imei}
        onInput={(e) => setF("imei", (e.target as HTMLInputElement).value)}
      />
      <input
        class="input"
        type="datetime-local"
        aria-label={t("alerts.center.start")}
        value={filters.start}
        onInput={(e) => setF("start", (e.target as HTMLInputElement).value)}
      />
      <input
        class="input"
        type="datetime-local"
        aria-label={t("alerts.center.end")}
        value={filters.end}
        onInput={(e) => setF("end", (e.target as HTMLInputElement).value)}
      />
      <select
        class="input"
        aria-label={t("alerts.center.read")}
        value={String(filters.read)}
        onChange={(e) => setF("read", (e.target as HTMLSelectElement).value)}
      >
        <option value="all">{t("alerts.center.readAll")}</option>
        <option value="-1">{t("alerts.center.unreadOnly")}</option>
        <option value="0">{t("alerts.center.readOnly")}</option>
      </select>
      <select
        class="input"
        aria-label={t("alerts.center.processed")}
        value={filters.processed}
        onChange={(e) => setF("processed", (e.target as HTMLSelectElement).value)}
      >
        <option value="all">{t("alerts.center.processedAll")}</option>
        <option value="unprocessed">{t("alerts.center.unprocessed")}</option>
        <option value="processed">{t("alerts.center.processedOnly")}</option>
      </select>
      <button type="submit" class="btn btn-primary">{t("ui.search")}</button>
    </form>
  );
}

function AlertTable(
  { t, data, loading, checked, setChecked, onProcess }: {
    t: Translate;
    data: AlertPage | null;
    loading: boolean;
    checked: Set<string>;
    setChecked: (next: Set<string>) => void;
    onProcess: (a: AlertRow) => void;
  },
) {
  const allChecked = !!data?.list.length && data.list.every((a) => checked.has(a.id));
  const media = useAlertMedia(data?.list);
  const toggle = (id: string) => {
    const next = new Set(checked);
    next.has(id) ? next.delete(id) : next.add(id);
    setChecked(next);
  };
  return (
    <div class="table-wrap">
      <table class="data">
        <thead>
          <tr>
            <th>
              <input
                type="checkbox"
                aria-label={t("alerts.center.selectAll")}
                checked={allChecked}
                onChange={() =>
                  setChecked(allChecked ? new Set() : new Set(data?.list.map((a) => a.id)))}
              />
            </th>
            <th>{t("alerts.center.device")}</th>
            <th>{t("alerts.center.type")}</th>
            <th>{t("alerts.center.time")}</th>
            <th>{t("alerts.center.detail")}</th>
            <th>{t("alerts.center.position")}</th>
            <th>{t("alerts.center.status")}</th>
            <th>{t("ui.actions")}</th>
          </tr>
        </thead>
        <tbody>
          {loading && !data && (
            <tr>
              <td colSpan={8} class="table-loading">{t("ui.loading")}</td>
            </tr>
          )}
          {data && !data.list.length && (
            <tr>
              <td colSpan={8} class="empty">{t("alerts.center.empty")}</td>
            </tr>
          )}
          {data?.list.map((a) => (
            <AlertTableRow
              key={a.id}
              t={t}
              a={a}
              media={media.get(a.id)}
              checked={checked.has(a.id)}
              onToggle={() => toggle(a.id)}
              onProcess={() => onProcess(a)}
            />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function AlertTableRow(
  { t, a, media, checked, onToggle, onProcess }: {
    t: Translate;
    a: AlertRow;
    /** The alarm's picture or video (event media), when the device sent any. */
    media?: EventMediaRow;
    checked: boolean;
    onToggle: () => void;
    onProcess: () => void;
  },
) {
  return (
    <tr class={a.read === -1 ? "unread" : ""}>
      <td>
        <input
          type="checkbox"
          aria-label={a.deviceName}
          checked={checked}
          onChange={onToggle}
        />
      </td>
      <td>
        <div class="ac-device">
          {a.read === -1 && <span class="ac-dot" aria-label={t("alerts.center.unreadOnly")} />}
          {a.deviceName}
        </div>
        <div class="muted mono">{a.imei}</div>
        {a.driverName && (
          <div class="muted" data-testid="alert-driver">
            {t("alerts.center.driver", { name: a.driverName })}
          </div>
        )}
      </td>
      <td>
        <span class={`ac-type ac-${a.type}`}>{t(`alerts.type.${a.type}`)}</span>
      </td>
      <td>{formatTime(a.time)}</td>
      <td class="ac-detail">
        {alertDetail(t, a)}
        <AlertMediaThumb t={t} media={media} />
      </td>
      <td class="ac-place">
        {a.address && <div data-address>{a.address}</div>}
        <div class={`mono ${a.address ? "muted" : ""}`}>
          {a.lat !== null && a.lng !== null ? `${a.lat.toFixed(5)}, ${a.lng.toFixed(5)}` : "-"}
        </div>
      </td>
      <td>
        {a.processed
          ? (
            <span class="badge ok" title={a.content}>
              {t("alerts.center.processedBy", { handler: a.handler })}
            </span>
          )
          : <span class="badge warn">{t("alerts.center.unprocessed")}</span>}
      </td>
      <td>
        <div class="ac-actions">
          {!a.processed && (
            <button type="button" class="link-btn" onClick={onProcess}>
              {t("alerts.center.process")}
            </button>
          )}
          <a class="link-btn" href={a.mapUrl}>{t("alerts.center.map")}</a>
        </div>
      </td>
    </tr>
  );
}

function ProcessDialog(
  { t, alert, onClose, onDone }: {
    t: Translate;
    alert: AlertRow;
    onClose: () => void;
    onDone: () => void;
  },
) {
  const [handler, setHandler] = useState("");
  const [content, setContent] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const submit = async (e: Event) => {
    e.preventDefault();
    const found: Record<string, string> = {};
    if (!handler.trim()) found.handler = t("validation.required");
    if (!content.trim()) found.content = t("validation.required");
    setErrors(found);
    if (Object.keys(found).length) return;
    try {
      await api("/v3/new/alarm/process", {
        imei: alert.imei,
        time: alert.time,
        id: alert.id,
        handler: handler.trim(),
        content: content.trim(),
      });
      onDone();
    } catch (err) {
      const field = err instanceof ApiError
        ? String((err.data as { field?: string } | null)?.field ?? "form")
        : "form";
      setErrors({ [field]: err instanceof ApiError ? err.message : t("ui.requestFailed") });
    }
  };
  return (
    <Modal
      title={t("alerts.center.processTitle")}
      closeLabel={t("ui.close")}
      onClose={onClose}
      footer={
        <>
          <button type="button" class="btn" onClick={onClose}>{t("ui.cancel")}</button>
          <button type="submit" form="process-form" class="btn btn-primary">{t("ui.save")}</button>
        </>
      }
    >
      <form id="process-form" class="form-grid" onSubmit={submit}>
        <p class="muted">
          {alert.deviceName} · {t(`alerts.type.${alert.type}`)} · {formatTime(alert.time)}
        </p>
        <Field
          label={t("alerts.center.handler")}
          required
          error={errors.handler}
          hint={t("alerts.center.handlerHint")}
        >
          <input
            class="input"
            name="handler"
            maxLength={50}
            value={handler}
            onInput={(e) => setHandler((e.target as HTMLInputElement).value)}
          />
        </Field>
        <Field
          label={t("alerts.center.content")}
          required
          error={errors.content}
          hint={t("alerts.center.contentHint", { n: content.length })}
        >
          <textarea
            class="input"
            name="content"
            rows={4}
            maxLength={500}
            value={content}
            onInput={(e) => setContent((e.target as HTMLTextAreaElement).value)}
          />
        </Field>
        {errors.form && <p class="form-error">{errors.form}</p>}
      </form>
    </Modal>
  );
}

export default island("alerts/AlertCenter", AlertCenter);
