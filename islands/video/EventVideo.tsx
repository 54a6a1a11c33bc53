import { useEffect, useMemo, useState } from "react";
import { island } from "../../lib/islands/island.tsx";
import { type Lang, translator } from "../../lib/i18n/i18n.ts";
import { api } from "../../lib/client/api.ts";
import { toast, Toasts } from "../../components/ui/Toast.tsx";
import { FIRST_PAGE, PagerFor, type PageState } from "../../components/ui/Pagination.tsx";
import {
  EVENT_MEDIA_STATES,
  type EventMediaRow,
  type EventMediaState,
} from "../../modules/video/model.ts";
import { MediaViewer } from "../../components/video/MediaViewer.tsx";
import { useVideoBasics } from "../../components/video/useVideoBasics.ts";
import {
  alarmLabel,
  dayBounds,
  formatTime,
  refusalText,
  todayIn,
} from "../../components/video/video_data.ts";

interface Filter {
  imei: string;
  from: string;
  to: string;
  state: EventMediaState | "";
}
type EventPage = { total: number; list: EventMediaRow[] };
const WEEK_MS = 6 * 86_400_000;

/**
 * /eventVideo: the media (pictures, videos) devices uploaded for their alarms, by device, time
 * range and media state; a thumbnail opens the viewer, with the face-match result when any.
 */
function EventVideo(
  { lang, models, timeZone }: { lang: Lang; models: string[]; timeZone: string },
) {
  const t = useMemo(() => translator(lang), [lang]);
  const fail = (e: unknown) => toast(refusalText(e), "error");
  const { devices } = useVideoBasics(models, fail);
  const today = todayIn(timeZone);
  const [draft, setDraft] = useState<Filter>({
    imei: "",
    from: new Date(new Date(today).getTime() - WEEK_MS).toISOString().slice(0, 10),
    to: today,
    state: "",
  });
  const [filter, setFilter] = useState(draft);
  const [page, setPage] = useState<PageState>(FIRST_PAGE);
  const [data, setData] = useState<EventPage | null>(null);
  const [open, setOpen] = useState<EventMediaRow | null>(null);
  useEffect(() => {
    setData(null);
    api<EventPage>("/v3/new/video/event/list", {
      ...(filter.imei ? { imeis: [filter.imei] } : {}),
      startTime: dayBounds(filter.from, timeZone).start,
      endTime: dayBounds(filter.to, timeZone).end,
      ...(filter.state ? { state: filter.state } : {}),
      ...page,
    }).then(setData, (e) => {
      setData({ total: 0, list: [] });
      fail(e);
    });
  }, [filter, page]);
  const set = (k: keyof Filter) => (e: Event) =>
    setDraft({ ...draft, [k]: (e.target as HTMLInputElement).value });

  return (
    <div class="vd-events" data-testid="event-page">
      <form
        class="toolbar vd-query"
        onSubmit={(e) => {
          e.preventDefault();
          setPage({ ...page, pageNum: 1 });
          setFilter(draft);
        }}
      >
        <label>
          {t("video.event.device")}
          <select class="input" value={draft.imei} onChange={set("imei")}>
            <option value="">{t("video.event.allDevices")}</option>
            {devices?.map((d) => <option key={d.imei} value={d.imei}>{d.name}</option>)}
          </select>
        </label>
        <label>
          {t("video.history.from")}
          <input class="input" type="date" value={draft.from} max={today} onInput={set("from")} />
        </label>
        <label>
          {t("video.history.to")}
          <input class="input" type="date" value={draft.to} max={today} onInput={set("to")} />
        </label>
        <label>
          {t("video.event.state")}
          <select class="input" value={draft.state} onChange={set("state")}>
            <option value="">{t("video.event.allStates")}</option>
            {EVENT_MEDIA_STATES.map((s) => (
              <option key={s} value={s}>{t(`video.media.${s}`)}</option>
            ))}
          </select>
        </label>
        <button class="btn btn-primary" type="submit">{t("ui.search")}</button>
      </form>
      {!data && <div class="table-loading">{t("ui.loading")}</div>}
      {data && !data.list.length && <p class="empty vd-events-empty">{t("video.event.empty")}</p>}
      <ul class="vd-event-grid" role="list">
        {data?.list.map((r) => (
          <EventCard
            key={r.id}
            t={t}
            row={r}
            timeZone={timeZone}
            onOpen={() => setOpen(r)}
          />
        ))}
      </ul>
      <PagerFor t={t} total={data?.total ?? 0} page={page} setPage={setPage} />
      {open && <MediaViewer t={t} row={open} onClose={() => setOpen(null)} />}
      <Toasts />
    </div>
  );
}

/** One alarm's media: thumbnail (picture, or a play mark for video only), alarm, time, state. */
function EventCard(
  { t, row, timeZone, onOpen }: {
    t: ReturnType<typeof translator>;
    row: EventMediaRow;
    timeZone: string;
    onOpen: () => void;
  },
) {
  const has = row.pictures.length + row.videos.length > 0;
  return (
    <li class="vd-event" data-testid="event-media" data-state={row.state}>
      <button
        type="button"
        class="vd-event-thumb"
        disabled={!has}
        onClick={onOpen}
        aria-label={t("video.event.open", { name: row.deviceName })}
      >
        {row.pictures[0]
          ? <img src={row.pictures[0]} alt="" loading="lazy" />
          : <span class="vd-play-mark" aria-hidden="true">{row.videos.length ? "▶" : "—"}</span>}
        {row.videos.length > 0 && <span class="vd-badge-video">{t("video.event.video")}</span>}
      </button>
      <div class="vd-event-body">
        <b>{row.deviceName}</b>
        <span>{alarmLabel(t, row.alarmType)}</span>
        <span class="muted">{formatTime(row.time, timeZone)}</span>
        <span class={`badge vd-media-${row.state}`}>{t(`video.media.${row.state}`)}</span>
        {row.face && (
          <span class={`badge vd-face-${row.face.state}`}>
            {t("video.event.face")}: {t(`video.face.${row.face.state}`)}
          </span>
        )}
        {row.cameraFiles && (
          <span class="muted vd-camera-files" data-testid="camera-files">
            {t("video.event.onCamera", { files: row.cameraFiles.join(", ") })}
          </span>
        )}
      </div>
    </li>
  );
}

export default island("video/EventVideo", EventVideo);
