/**
 * The alarm's picture or video beside an alert (alert centre): the event media of the listed
 * alerts, fetched in one call, and a thumbnail that opens the viewer. Accounts without the video
 * permission get a refusal, which simply leaves the thumbnails out.
 */
import type { TFunction } from "i18next";
import { useEffect, useState } from "react";
import { api } from "../../lib/client/api.ts";
import type { EventMediaRow } from "../../modules/video/model.ts";
import { MediaViewer } from "./MediaViewer.tsx";

/** The most alerts one page lists (the alert centre's largest page size). */
const PAGE_MAX = 100;

/** Event media of `alerts` by alert id (empty until loaded, or when there is none). */
export function useAlertMedia(
  alerts: { id: string; imei: string; time: number }[] | undefined,
): Map<string, EventMediaRow> {
  const [media, setMedia] = useState(new Map<string, EventMediaRow>());
  const key = alerts?.map((a) => a.id).join(",") ?? "";
  useEffect(() => {
    if (!alerts?.length) return setMedia(new Map());
    const times = alerts.map((a) => a.time);
    let gone = false;
    api<{ list: EventMediaRow[] }>("/v3/new/video/event/list", {
      imeis: [...new Set(alerts.map((a) => a.imei))],
      startTime: new Date(Math.min(...times) - 1000).toISOString(),
      endTime: new Date(Math.max(...times) + 1000).toISOString(),
      pageNum: 1,
      pageSize: PAGE_MAX,
    }).then(
      (p) => !gone && setMedia(new Map(p.list.map((m) => [m.alertId, m]))),
      () => !gone && setMedia(new Map()),
    );
    return () => {
      gone = true;
    };
  }, [key]);
  return media;
}

/** A small picture (or a video mark) of the alarm's media; opens the viewer. */
export function AlertMediaThumb({ t, media }: { t: TFunction; media?: EventMediaRow }) {
  const [open, setOpen] = useState(false);
  if (!media || media.pictures.length + media.videos.length === 0) return null;
  return (
    <>
      <button
        type="button"
        class="vd-alert-thumb"
        data-testid="alert-media"
        aria-label={t("video.event.media")}
        onClick={() => setOpen(true)}
      >
        {media.pictures[0]
          ? <img src={media.pictures[0]} alt={t("video.event.picture")} loading="lazy" />
          : <span class="vd-play-mark" aria-hidden="true">▶</span>}
        {media.videos.length > 0 && <span class="vd-badge-video">{t("video.event.video")}</span>}
      </button>
      {open && <MediaViewer t={t} row={media} onClose={() => setOpen(false)} />}
    </>
  );
}
