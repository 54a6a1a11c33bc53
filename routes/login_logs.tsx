import dayjs from "dayjs";
import type { PageContext } from "../app/pages/context.ts";
import type { LoginLogEntry } from "../modules/auth/store.ts";

/** The caller's own login log, newest first, 20 a page with a "more" link (cursor paging). */
export function LoginLogPage(
  { ctx, items, next, first }: {
    ctx: PageContext;
    items: LoginLogEntry[];
    next: string | null;
    first: boolean;
  },
) {
  const { t } = ctx;
  return (
    <div class="panel">
      <div class="panel-title">
        <h1>{t("settings.items.loginLogs")}</h1>
      </div>
      <div class="table-wrap">
        <table class="data">
          <thead>
            <tr>
              <th>{t("settings.loginLog.time")}</th>
              <th>{t("settings.loginLog.ip")}</th>
              <th>{t("settings.loginLog.result")}</th>
              <th>{t("settings.loginLog.client")}</th>
            </tr>
          </thead>
          <tbody>
            {items.length === 0 && (
              <tr>
                <td colSpan={4} class="empty">{t("ui.noData")}</td>
              </tr>
            )}
            {items.map((e) => (
              <tr key={e.time + e.ip}>
                <td>{dayjs(e.time).format("YYYY-MM-DD HH:mm:ss")}</td>
                <td>{e.ip}</td>
                <td>
                  <span class={`badge ${e.success ? "ok" : "bad"}`}>
                    {e.success ? t("settings.loginLog.success") : t(`errors.${e.reason}`)}
                  </span>
                </td>
                <td title={e.userAgent}>{e.userAgent.slice(0, 60)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div class="pagination">
        {!first && <a class="btn" href="/loginLogs">{t("settings.loginLog.newest")}</a>}
        {next && (
          <a class="btn" href={`/loginLogs?cursor=${encodeURIComponent(next)}`}>
            {t("settings.loginLog.older")}
          </a>
        )}
      </div>
    </div>
  );
}
