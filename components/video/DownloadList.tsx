/**
 * The caller's video downloads (history/downloads): state (downloading, success, failure),
 * when each stops being downloadable, and the MP4 link once ready. Refreshes itself while a
 * download is running.
 */
import type { TFunction } from "i18next";
import { useEffect, useState } from "react";
import { api } from "../../lib/client/api.ts";
import { FIRST_PAGE, PagerFor, type PageState } from "../ui/Pagination.tsx";
import type { VideoDownloadRow } from "../../modules/video/model.ts";
import { formatSize, formatTime } from "./video_data.ts";

const REFRESH_MS = 3000;
type DownloadPage = { total: number; list: VideoDownloadRow[] };

export function DownloadList(
  { t, timeZone, reload }: { t: TFunction; timeZone: string; reload: number },
) {
  const [page, setPage] = useState<PageState>(FIRST_PAGE);
  const [data, setData] = useState<DownloadPage | null>(null);
  const [error, setError] = useState("");
  const load = () =>
    api<DownloadPage | VideoDownloadRow[]>("/v3/new/video/history/downloads", page).then(
      (d) => {
        setError("");
        setData(Array.isArray(d) ? { total: d.length, list: d } : d);
      },
      (e) => setError((e as Error).message),
    );
  useEffect(() => void load(), [page, reload]);
  const running = data?.list.some((r) => r.state === "downloading");
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(load, REFRESH_MS);
    return () => clearInterval(timer);
  }, [running, page]);
  const now = Date.now();
  return (
    <section class="vd-downloads" aria-label={t("video.downloads.title")}>
      <h2>{t("video.downloads.title")}</h2>
      {error && <div class="form-error" role="alert">{error}</div>}
      <div class="table-wrap">
        <table class="data">
          <thead>
            <tr>
              <th>{t("video.downloads.device")}</th>
              <th>{t("video.cameras.channel")}</th>
              <th>{t("video.downloads.recording")}</th>
              <th>{t("video.history.size")}</th>
              <th>{t("video.downloads.state")}</th>
              <th>{t("video.downloads.expires")}</th>
              <th>{t("ui.actions")}</th>
            </tr>
          </thead>
          <tbody>
            {data && !data.list.length && (
              <tr>
                <td colSpan={7} class="empty">{t("video.downloads.empty")}</td>
              </tr>
            )}
            {data?.list.map((r) => {
              const expired = new Date(r.expiresAt).getTime() < now;
              return (
                <tr key={r.id} data-testid="download-row" data-state={r.state}>
                  <td>
                    {r.deviceName}
                    <div class="muted mono">{r.imei}</div>
                  </td>
                  <td>{t("video.common.channel", { n: r.channel })}</td>
                  <td class="vd-nowrap">
                    {formatTime(r.startTime, timeZone)} –{" "}
                    {formatTime(r.endTime, timeZone).slice(11)}
                  </td>
                  <td>{r.size ? formatSize(r.size) : "-"}</td>
                  <td>
                    <span class={`badge vd-dl-${r.state}`}>{t(`video.downloads.${r.state}`)}</span>
                  </td>
                  <td class={expired ? "muted" : ""}>
                    {expired ? t("video.downloads.expired") : formatTime(r.expiresAt, timeZone)}
                  </td>
                  <td>
                    {r.state === "success" && r.url && !expired && (
                      <a class="link-btn" href={r.url} download>{t("video.downloads.save")}</a>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <PagerFor t={t} total={data?.total ?? 0} page={page} setPage={setPage} />
    </section>
  );
}
