/**
 * Plays one history file: history/play starts the device's upload and answers an HLS path;
 * pause, resume, seek and fast forward go to the device through history/control (0x9202) and
 * to the element. Closing (unmount) sends stop.
 */
import type { TFunction } from "i18next";
import { useEffect, useRef, useState } from "react";
import { api } from "../../lib/client/api.ts";
import type {
  HistoryControlRequest,
  HistoryFile,
  LiveStartAnswer,
} from "../../modules/video/model.ts";
import { canPlayCodec, useHlsPlayback } from "./hls.ts";
import { formatDuration, formatTime, refusalText } from "./video_data.ts";

const SPEEDS = [1, 2, 4, 8, 16] as const;
type Speed = typeof SPEEDS[number];

export function HistoryPlayer(
  { t, imei, file, timeZone, title, onClose, onDownload }: {
    t: TFunction;
    imei: string;
    file: HistoryFile;
    timeZone: string;
    title: string;
    onClose: () => void;
    onDownload: () => void;
  },
) {
  const video = useRef<HTMLVideoElement>(null);
  const [answer, setAnswer] = useState<LiveStartAnswer | null>(null);
  const [state, setState] = useState<"connecting" | "playing" | "paused" | "error">("connecting");
  const [message, setMessage] = useState("");
  const [speed, setSpeed] = useState<Speed>(1);
  const [seek, setSeek] = useState(0);
  const length = new Date(file.endTime).getTime() - new Date(file.startTime).getTime();
  const control = (body: Omit<HistoryControlRequest, "imei" | "channel">) =>
    api("/v3/new/video/history/control", { imei, channel: file.channel, ...body }).catch((e) =>
      setMessage(refusalText(e))
    );

  useEffect(() => {
    let gone = false;
    api<LiveStartAnswer>("/v3/new/video/history/play", {
      imei,
      channel: file.channel,
      startTime: file.startTime,
      endTime: file.endTime,
    }).then((a) => !gone && setAnswer(a), (e) => {
      if (gone) return;
      setState("error");
      setMessage(refusalText(e));
    });
    return () => {
      gone = true;
      void api("/v3/new/video/history/control", {
        imei,
        channel: file.channel,
        action: "stop",
      }).catch(() => {});
    };
  }, [imei, file.id]);

  const playable = answer && canPlayCodec(answer.codec);
  useHlsPlayback(video, playable ? answer.url : null, "history", {
    onPlaying: () => setState("playing"),
    onFatal: () => setState("error"),
  });

  const togglePause = () => {
    const el = video.current;
    if (state === "paused") {
      control({ action: "resume" });
      void el?.play().catch(() => {});
      setState("playing");
    } else {
      control({ action: "pause" });
      el?.pause();
      setState("paused");
    }
  };
  const changeSpeed = (s: Speed) => {
    setSpeed(s);
    control({ action: "speed", speed: s });
  };
  const seekTo = (ms: number) => {
    setSeek(ms);
    const at = new Date(new Date(file.startTime).getTime() + ms);
    control({ action: "seek", seekTo: at.toISOString().replace(/\.\d{3}Z$/, "Z") });
  };

  return (
    <div class="vd-player" data-testid="history-player" data-state={state}>
      <header class="vd-cell-head">
        <span class="vd-cell-title">
          {title} · {formatTime(file.startTime, timeZone)} –{" "}
          {formatTime(file.endTime, timeZone).slice(11)}
        </span>
        <span class={`vd-state vd-state-${state}`}>{t(`video.history.state.${state}`)}</span>
        <button
          type="button"
          class="icon-btn vd-close"
          aria-label={t("video.live.close")}
          onClick={onClose}
        >
          ×
        </button>
      </header>
      <div class="vd-screen">
        <video ref={video} playsInline muted controls />
        {state === "connecting" && !answer && (
          <div class="vd-overlay">
            <span class="vd-spinner" aria-hidden="true" />
            {t("video.history.requesting")}
          </div>
        )}
        {answer && !playable && (
          <div class="vd-overlay" role="status">
            <p>{t("video.live.h265")}</p>
            <button type="button" class="btn" onClick={onDownload}>
              {t("video.history.download")}
            </button>
          </div>
        )}
        {state === "error" && (
          <div class="vd-overlay" role="alert">
            <p>{message || t("video.state.error")}</p>
          </div>
        )}
      </div>
      <PlayerControls
        t={t}
        ready={!!answer && state !== "error"}
        paused={state === "paused"}
        onPause={togglePause}
        seek={seek}
        length={length}
        onSeek={seekTo}
        speed={speed}
        onSpeed={changeSpeed}
        onDownload={onDownload}
      />
      {answer?.audioNote && state === "playing" && (
        <div class="vd-note">
          {t(answer.audioNote.includes(".") ? answer.audioNote : `errors.${answer.audioNote}`)}
        </div>
      )}
      {message && state !== "error" && <div class="form-error" role="alert">{message}</div>}
    </div>
  );
}

/** Pause/resume, the position slider, fast forward and download under the player. */
function PlayerControls(
  { t, ready, paused, onPause, seek, length, onSeek, speed, onSpeed, onDownload }: {
    t: TFunction;
    ready: boolean;
    paused: boolean;
    onPause: () => void;
    seek: number;
    length: number;
    onSeek: (ms: number) => void;
    speed: Speed;
    onSpeed: (s: Speed) => void;
    onDownload: () => void;
  },
) {
  return (
    <div class="toolbar vd-player-controls">
      <button type="button" class="btn" disabled={!ready} onClick={onPause}>
        {paused ? t("video.history.resume") : t("video.history.pause")}
      </button>
      <label class="vd-seek">
        <span>{formatDuration(seek)}</span>
        <input
          type="range"
          min={0}
          max={Math.max(1000, length)}
          step={1000}
          value={seek}
          disabled={!ready}
          aria-label={t("video.history.seek")}
          onChange={(e) => onSeek(Number((e.target as HTMLInputElement).value))}
        />
        <span>{formatDuration(length)}</span>
      </label>
      <label class="vd-speed">
        {t("video.history.speed")}
        <select
          class="input"
          value={speed}
          disabled={!ready}
          onChange={(e) => onSpeed(Number((e.target as HTMLSelectElement).value) as Speed)}
        >
          {SPEEDS.map((s) => <option key={s} value={s}>{s}×</option>)}
        </select>
      </label>
      <button type="button" class="btn" onClick={onDownload}>
        {t("video.history.download")}
      </button>
    </div>
  );
}
