import { useEffect, useMemo, useState } from "react";
import { island } from "../../lib/islands/island.tsx";
import { api } from "../../lib/client/api.ts";
import { type Lang, translator } from "../../lib/i18n/i18n.ts";
import { toast, Toasts } from "../../components/ui/Toast.tsx";
import { FIRST_PAGE, PagerFor, type PageState } from "../../components/ui/Pagination.tsx";
import type { AlertRecord } from "../../modules/alerts/store.ts";
import { formatter } from "../../components/monitor/format.ts";
import { MonitorTabs } from "../../components/monitor/MonitorTabs.tsx";
import { openLive } from "../../components/monitor/live.ts";

type Row = AlertRecord & { deviceName: string; mapUrl: string };
type ReadFilter = "all" | 0 | -1;

/**
 * /monitorEvent: the latest alerts of the account's subtree (the alert centre's list API),
 * read/unread state, and a jump to the device on the map. New alarms arrive over the live
 * stream and refresh the first page.
 */
function Events(
  { lang, settings }: {
    lang: Lang;
    settings: { distanceUnit: string; speedUnit: string; timeZone: string };
  },
) {
  const t = translator(lang);
  const fmt = useMemo(() => formatter(settings, t), [lang]);
  const [read, setRead] = useState<ReadFilter>("all");
  const [page, setPage] = useState<PageState>(FIRST_PAGE);
  const [data, setData] = useState<{ total: number; unread: number; list: Row[] } | null>(null);
  const [error, setError] = useState("");
  const [tick, setTick] = useState(0);

  useEffect(() => {
    let stale = false;
    api<{ total: number; unread: number; list: Row[] }>("/v3/new/alarm/list", {
      read,
      ...page,
    }).then((d) => !stale && (setData(d), setError(""))).catch((e) =>
      !stale && setError((e as Error).message)
    );
    return () => {
      stale = true;
    };
  }, [read, page, tick]);

  useEffect(() => openLive("/v3/new/monitor/stream", { alert: () => setTick((n) => n + 1) }), []);

  const mark = async (rows: Row[], value: 0 | -1) => {
    try {
      await api("/v3/new/alarm/mark", {
        alerts: rows.map((r) => ({ imei: r.imei, time: r.time, id: r.id })),
        read: value,
      });
      setTick((n) => n + 1);
    } catch (e) {
      toast((e as Error).message, "error");
    }
  };
  const markAll = async () => {
    try {
      await api("/v3/new/alarm/markAllRead", { read: "all" });
      setTick((n) => n + 1);
    } catch (e) {
      toast((e as Error).message, "error");
    }
  };

  return (
    <div class="mon-layout mon-events">
      <aside class="mon-side mon-side-narrow">
        <MonitorTabs active="event" t={t} />
        <div class="mon-side-tools">
          <div class="mon-status-tabs mon-read-tabs" role="tablist">
            {(["all", -1, 0] as ReadFilter[]).map((k) => (
              <button
                key={String(k)}
                type="button"
                role="tab"
                aria-selected={read === k}
                class={read === k ? "active" : ""}
                data-read={String(k)}
                onClick={() => {
                  setRead(k);
                  setPage({ ...page, pageNum: 1 });
                }}
              >
                <span>
                  {t(`monitor.events.${k === "all" ? "all" : k === -1 ? "unread" : "read"}`)}
                </span>
                {k === -1 && data && read === "all" && <b>{data.unread}</b>}
              </button>
            ))}
          </div>
          <button
            type="button"
            class="btn"
            disabled={!data?.unread}
            onClick={markAll}
          >
            {t("monitor.events.markAllRead")}
          </button>
        </div>
      </aside>
      <section class="mon-events-main">
        <div class="panel">
          <div class="panel-title">
            <h1>{t("monitor.events.title")}</h1>
            <button type="button" class="btn" onClick={() => setTick((n) => n + 1)}>
              {t("monitor.events.refresh")}
            </button>
          </div>
          {error && <div class="mon-empty error">{error}</div>}
          {!data && !error && <div class="mon-empty">{t("ui.loading")}</div>}
          {data && data.list.length === 0 && (
            <div class="mon-empty">{t("monitor.events.empty")}</div>
          )}
          {data && data.list.length > 0 && (
            <div class="table-wrap">
              <table class="data">
                <thead>
                  <tr>
                    <th>{t("monitor.fields.type")}</th>
                    <th>{t("monitor.fields.name")}</th>
                    <th>{t("monitor.fields.time")}</th>
                    <th>{t("monitor.fields.speed")}</th>
                    <th>{t("monitor.fields.coords")}</th>
                    <th>{t("monitor.fields.read")}</th>
                    <th class="col-actions">{t("ui.actions")}</th>
                  </tr>
                </thead>
                <tbody>
                  {data.list.map((a) => (
                    <EventRow key={a.id} a={a} fmt={fmt} t={t} onMark={mark} />
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <PagerFor t={t} total={data?.total ?? 0} page={page} setPage={setPage} />
        </div>
      </section>
      <Toasts />
    </div>
  );
}

/** One alert of the list, with its read state and actions. */
function EventRow({ a, fmt, t, onMark }: {
  a: Row;
  fmt: ReturnType<typeof formatter>;
  t: ReturnType<typeof translator>;
  onMark: (rows: Row[], value: 0 | -1) => void;
}) {
  const unread = a.read === -1;
  return (
    <tr data-alert={a.id} class={unread ? "mon-unread" : ""}>
      <td>
        <span class="mon-alarm-type">{t(`alerts.type.${a.type}`, { defaultValue: a.type })}</span>
      </td>
      <td>
        <div>{a.deviceName}</div>
        <div class="mono muted">{a.imei}</div>
      </td>
      <td>{fmt.time(a.time)}</td>
      <td>{a.speed === null ? "—" : fmt.speed(a.speed)}</td>
      <td class="mon-alarm-where">
        {a.address && <div data-address>{a.address}</div>}
        <div class={`mono ${a.address ? "muted" : ""}`}>
          {a.lat !== null && a.lng !== null ? fmt.coords(a.lat, a.lng) : "—"}
        </div>
      </td>
      <td>
        <span class={`badge ${unread ? "bad" : ""}`}>
          {unread ? t("monitor.events.unread") : t("monitor.events.read")}
        </span>
      </td>
      <td class="col-actions">
        <a class="link-btn" href={a.mapUrl}>{t("monitor.events.showOnMap")}</a>
        <button type="button" class="link-btn" onClick={() => onMark([a], unread ? 0 : -1)}>
          {unread ? t("monitor.events.markRead") : t("monitor.events.markUnread")}
        </button>
      </td>
    </tr>
  );
}

export default island("monitor/Events", Events);
