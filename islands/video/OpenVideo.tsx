import { useMemo, useState } from "react";
import { island } from "../../lib/islands/island.tsx";
import { type Lang, translator } from "../../lib/i18n/i18n.ts";
import { api } from "../../lib/client/api.ts";
import type { LiveStartAnswer, VideoShareRow } from "../../modules/video/model.ts";
import { LiveCell } from "../../components/video/LiveCell.tsx";
import { formatTime } from "../../components/video/video_data.ts";

/** What opening a public link answers: the stream, and what it shows. */
type OpenAnswer = LiveStartAnswer & Partial<Pick<VideoShareRow, "expiresAt">> & {
  deviceName?: string;
  channel?: number;
  startTime?: string;
  endTime?: string;
};

/**
 * /openLive and /openHistory: the channel or file a public link names, without login. The
 * link's token (from the URL) authorises the stream; an expired or revoked link shows "live
 * link expired".
 */
function OpenVideo({ lang, kind, token }: { lang: Lang; kind: "live" | "history"; token: string }) {
  const t = useMemo(() => translator(lang), [lang]);
  const [info, setInfo] = useState<OpenAnswer | null>(null);
  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const start = () =>
    api<OpenAnswer>("/v3/new/video/open/start", { token }).then((a) => {
      setInfo(a);
      return a;
    });
  const base = info?.deviceName ??
    t(kind === "live" ? "video.open.liveTitle" : "video.open.historyTitle");
  const title = info?.channel
    ? `${base} · ${t("video.common.channel", { n: info.channel })}`
    : base;
  return (
    <div class="vd-open" data-testid="open-video">
      <LiveCell t={t} title={title} start={start} mode={kind} />
      <p class="muted vd-open-facts">
        {info?.startTime && info.endTime && (
          <span>
            {formatTime(info.startTime, timeZone)} – {formatTime(info.endTime, timeZone)}
          </span>
        )}
        {info?.expiresAt && (
          <span>{t("video.open.validUntil", { time: formatTime(info.expiresAt, timeZone) })}</span>
        )}
      </p>
    </div>
  );
}

export default island("video/OpenVideo", OpenVideo);
