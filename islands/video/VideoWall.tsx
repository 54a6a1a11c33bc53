import { useMemo, useState } from "react";
import { island } from "../../lib/islands/island.tsx";
import { type Lang, translator } from "../../lib/i18n/i18n.ts";
import { api } from "../../lib/client/api.ts";
import { type LiveStartAnswer, type StreamType } from "../../modules/video/model.ts";
import { LiveCell } from "../../components/video/LiveCell.tsx";
import { useVideoBasics } from "../../components/video/useVideoBasics.ts";

const WALL_SIZES = [4, 9] as const;
type WallSize = typeof WALL_SIZES[number];

/**
 * /superVideo2024: a full-screen wall of the caller's online dashcams, the first camera of each,
 * a page of 4 or 9 at a time; "next" moves on to the following devices.
 */
function VideoWall({ lang, models }: { lang: Lang; models: string[] }) {
  const t = useMemo(() => translator(lang), [lang]);
  const { devices, settings } = useVideoBasics(models, () => {});
  const [size, setSize] = useState<WallSize>(9);
  const [page, setPage] = useState(0);
  const [stream, setStream] = useState<StreamType>("sub");
  const online = (devices ?? []).filter((d) => d.online);
  const pages = Math.max(1, Math.ceil(online.length / size));
  const shown = online.slice(page * size, page * size + size);
  const full = () => void document.documentElement.requestFullscreen?.().catch(() => {});
  return (
    <div class="vd-wall" data-testid="video-wall">
      <header class="vd-wall-bar">
        <a class="vd-wall-back" href="/live">← {t("video.wall.back")}</a>
        <h1>{t("video.wall.title")}</h1>
        <span class="muted">{t("video.wall.online", { count: online.length })}</span>
        <span class="grow" />
        {WALL_SIZES.map((n) => (
          <button
            key={n}
            type="button"
            class={`btn ${n === size ? "btn-primary" : ""}`}
            aria-pressed={n === size}
            onClick={() => {
              setSize(n);
              setPage(0);
            }}
          >
            {t("video.live.cells", { count: n })}
          </button>
        ))}
        <select
          class="input"
          aria-label={t("video.live.stream")}
          value={stream}
          onChange={(e) => setStream((e.target as HTMLSelectElement).value as StreamType)}
        >
          <option value="main">{t("video.stream.main")}</option>
          <option value="sub">{t("video.stream.sub")}</option>
        </select>
        <button type="button" class="btn" disabled={page === 0} onClick={() => setPage(page - 1)}>
          {t("video.wall.prev")}
        </button>
        <span class="muted">{page + 1} / {pages}</span>
        <button
          type="button"
          class="btn"
          disabled={page >= pages - 1}
          onClick={() => setPage(page + 1)}
        >
          {t("video.wall.next")}
        </button>
        <button type="button" class="btn" onClick={full}>{t("video.wall.fullScreen")}</button>
      </header>
      {devices && !online.length && <p class="vd-wall-empty">{t("video.wall.none")}</p>}
      <div class={`vd-grid vd-grid-${size} vd-wall-grid`}>
        {shown.map((d) => (
          <LiveCell
            key={`${d.imei}-${stream}`}
            t={t}
            title={d.name}
            limitMinutes={settings?.liveDefaultMinutes ?? 0}
            start={() =>
              api<LiveStartAnswer>("/v3/new/video/live/start", {
                imei: d.imei,
                channel: 1,
                stream,
              })}
            stop={() =>
              void api("/v3/new/video/live/stop", { imei: d.imei, channel: 1 }).catch(() => {})}
          />
        ))}
      </div>
    </div>
  );
}

export default island("video/VideoWall", VideoWall);
