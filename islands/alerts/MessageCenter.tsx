import { useEffect, useState } from "react";
import { island } from "../../lib/islands/island.tsx";
import { api, ApiError } from "../../lib/client/api.ts";
import { type Lang, translator } from "../../lib/i18n/i18n.ts";
import { FIRST_PAGE, PagerFor, type PageState } from "../../components/ui/Pagination.tsx";
import { toast, Toasts } from "../../components/ui/Toast.tsx";
import { formatTime } from "../../components/alerts/format.ts";
import {
  BALANCE_REMINDERS,
  type BalanceReminder,
  MESSAGE_TYPES,
  type PlatformMessage,
} from "../../modules/notifications/messages.ts";

/** Message center (/settingMessages): platform messages with read state. */
function MessageCenter({ lang }: { lang: Lang }) {
  const t = translator(lang);
  const [type, setType] = useState("");
  const [read, setRead] = useState<"all" | 0 | -1>("all");
  const [page, setPage] = useState<PageState>(FIRST_PAGE);
  const [data, setData] = useState<
    { total: number; unread: number; list: PlatformMessage[] } | null
  >(null);
  const [loading, setLoading] = useState(true);
  const [reminder, setReminder] = useState<BalanceReminder | null>(null);
  const fail = (e: unknown) =>
    toast(e instanceof ApiError ? e.message : t("ui.requestFailed"), "error");
  const load = async () => {
    setLoading(true);
    try {
      setData(
        await api("/v3/new/message/list", {
          ...(type ? { type: Number(type) } : {}),
          read,
          ...page,
        }),
      );
    } catch (e) {
      fail(e);
    } finally {
      setLoading(false);
    }
  };
  useEffect(() => {
    load();
  }, [type, read, page.pageNum, page.pageSize]);
  useEffect(() => {
    api<{ balanceReminder: BalanceReminder }>("/v3/new/message/prefs/get", {})
      .then((p) => setReminder(p.balanceReminder)).catch(fail);
  }, []);
  const saveReminder = async (value: BalanceReminder) => {
    try {
      await api("/v3/new/message/prefs/save", { balanceReminder: value });
      setReminder(value);
      toast(t("ui.saved"));
    } catch (e) {
      fail(e);
    }
  };
  const mark = async (value: 0 | -1, ids?: string[]) => {
    try {
      await api("/v3/new/message/mark", { read: value, ...(ids ? { ids } : {}) });
      load();
    } catch (e) {
      fail(e);
    }
  };
  return (
    <div class="panel">
      <div class="panel-title">
        <h1>{t("settings.items.settingMessages")}</h1>
        {data && <span class="badge">{t("alerts.center.unread", { n: data.unread })}</span>}
      </div>
      <div class="toolbar">
        <select
          class="input"
          aria-label={t("alerts.messages.typeLabel")}
          value={type}
          onChange={(e) => setType((e.target as HTMLSelectElement).value)}
        >
          <option value="">{t("alerts.messages.allTypes")}</option>
          {MESSAGE_TYPES.map((m) => (
            <option key={m} value={m}>{t(`alerts.messages.type.${m}`)}</option>
          ))}
        </select>
        <select
          class="input"
          aria-label={t("alerts.center.read")}
          value={String(read)}
          onChange={(e) => {
            const v = (e.target as HTMLSelectElement).value;
            setRead(v === "all" ? "all" : Number(v) as 0 | -1);
          }}
        >
          <option value="all">{t("alerts.center.readAll")}</option>
          <option value="-1">{t("alerts.center.unreadOnly")}</option>
          <option value="0">{t("alerts.center.readOnly")}</option>
        </select>
        <span class="grow" />
        {reminder && (
          <label class="inline-row msg-reminder">
            <span class="muted">{t("alerts.messages.balanceReminder")}</span>
            <select
              class="input"
              name="balanceReminder"
              value={reminder}
              onChange={(e) =>
                saveReminder((e.target as HTMLSelectElement).value as BalanceReminder)}
            >
              {BALANCE_REMINDERS.map((r) => (
                <option key={r} value={r}>{t(`alerts.messages.reminders.${r}`)}</option>
              ))}
            </select>
          </label>
        )}
        <button type="button" class="btn" disabled={!data?.unread} onClick={() => mark(0)}>
          {t("alerts.center.markAllRead")}
        </button>
      </div>
      <ul class="msg-list" aria-busy={loading}>
        {loading && !data && <li class="table-loading">{t("ui.loading")}</li>}
        {data && !data.list.length && <li class="empty">{t("alerts.messages.empty")}</li>}
        {data?.list.map((m) => (
          <li key={m.id} class={m.read === -1 ? "unread" : ""}>
            <span class="badge">{t(`alerts.messages.type.${m.type}`)}</span>
            <span class="grow">
              {t(
                `alerts.messages.text.${m.type}${m.params.variant ? `_${m.params.variant}` : ""}`,
                m.params,
              )}
            </span>
            <span class="muted">{formatTime(m.createdAt)}</span>
            {m.imei && (
              <a class="link-btn" href={`/monitorObject?imei=${m.imei}`}>
                {t("alerts.messages.showOnMap")}
              </a>
            )}
            <button
              type="button"
              class="link-btn"
              onClick={() => mark(m.read === -1 ? 0 : -1, [m.id])}
            >
              {t(m.read === -1 ? "alerts.center.markRead" : "alerts.center.markUnread")}
            </button>
          </li>
        ))}
      </ul>
      <PagerFor t={t} total={data?.total ?? 0} page={page} setPage={setPage} />
      <Toasts />
    </div>
  );
}

export default island("alerts/MessageCenter", MessageCenter);
