/**
 * One live channel in a grid: asks the server to start it, plays the HLS answer and shows the
 * cell's state (connecting, playing, device offline, timeout, live link expired, H.265 not
 * playable, error). Closing the cell (unmount) destroys the player and stops the stream.
 */
import { useEffect, useRef, useState } from "react";
import type { TFunction } from "i18next";
import type { ComponentChildren } from "preact";
import type { LiveStartAnswer, LiveState } from "../../modules/video/model.ts";
import { LIVE_START_TIMEOUT_SECONDS } from "../../modules/video/model.ts";
import { canPlayCodec, useHlsPlayback } from "./hls.ts";
import { refusalState, refusalText } from "./video_data.ts";

/** A started stream that shows no picture this long after its URL arrived counts as timed out. */
const FIRST_FRAME_MS = 20_000;

export interface LiveCellProps {
  t: TFunction;
  title: string;
  /** Asks the server for the stream (live/start, or a public link's start). */
  start: () => Promise<LiveStartAnswer>;
  /** Tells the server the viewer left (live/stop); not called for public links. */
  stop?: () => void;
  /** Minutes before the cell pauses and asks to continue (0: never). */
  limitMinutes?: number;
  onClose?: () => void;
  /** Extra header buttons (share). */
  actions?: ComponentChildren;
  /** Changing it restarts the cell (e.g. main/sub switch). */
  restartKey?: string;
  /** "history" for a recorded file shared by a public link (player settings differ). */
  mode?: "live" | "history";
}

export function LiveCell(
  { t, title, start, stop, limitMinutes = 0, onClose, actions, restartKey, mode = "live" }:
    LiveCellProps,
) {
  const video = useRef<HTMLVideoElement>(null);
  const [state, setState] = useState<LiveState>("connecting");
  const [message, setMessage] = useState("");
  const [answer, setAnswer] = useState<LiveStartAnswer | null>(null);
  const [run, setRun] = useState(0);
  const [paused, setPaused] = useState(false);

  useEffect(() => {
    let gone = false;
    setState("connecting");
    setMessage("");
    setAnswer(null);
    setPaused(false);
    start().then(
      (a) => {
        if (gone) return;
        setAnswer(a);
        if (!canPlayCodec(a.codec)) setState("unsupportedCodec");
      },
      (e) => {
        if (gone) return;
        setState(refusalState(e));
        setMessage(refusalText(e));
      },
    );
    return () => {
      gone = true;
      stop?.();
    };
  }, [run, restartKey]);

  const playable = answer && !paused && state !== "unsupportedCodec" ? answer.url : null;
  useHlsPlayback(video, playable, mode, {
    onPlaying: () => setState("playing"),
    onFatal: (status) => {
      setState(status === 403 || status === 410 ? "linkExpired" : "error");
      setMessage("");
    },
  });
  // No first frame in time: the device accepted but sends nothing we can play.
  useEffect(() => {
    if (!playable || state !== "connecting") return;
    const timer = setTimeout(() => setState("timeout"), FIRST_FRAME_MS);
    return () => clearTimeout(timer);
  }, [playable, state]);
  // The live default duration: pause and ask to continue.
  useEffect(() => {
    if (!limitMinutes || state !== "playing") return;
    const timer = setTimeout(() => setPaused(true), limitMinutes * 60_000);
    return () => clearTimeout(timer);
  }, [limitMinutes, state]);

  const failed = !["connecting", "playing"].includes(state);
  return (
    <div class={`vd-cell vd-${state}`} data-testid="live-cell" data-state={state}>
      <header class="vd-cell-head">
        <span class="vd-cell-title" title={title}>{title}</span>
        <span class={`vd-state vd-state-${state}`} data-testid="live-state">
          {t(`video.state.${state}`)}
        </span>
        {actions}
        {onClose && (
          <button
            type="button"
            class="icon-btn vd-close"
            aria-label={t("video.live.close")}
            onClick={onClose}
          >
            ×
          </button>
        )}
      </header>
      <div class="vd-screen">
        <video ref={video} playsInline muted controls={state === "playing"} />
        {state === "connecting" && (
          <div class="vd-overlay">
            <span class="vd-spinner" aria-hidden="true" />
            {t("video.live.connecting", { s: LIVE_START_TIMEOUT_SECONDS })}
          </div>
        )}
        {paused && (
          <div class="vd-overlay">
            <p>{t("video.live.limitReached", { n: limitMinutes })}</p>
            <button type="button" class="btn btn-primary" onClick={() => setPaused(false)}>
              {t("video.live.continue")}
            </button>
          </div>
        )}
        {state === "unsupportedCodec" && answer && (
          <div class="vd-overlay" role="status">
            <p>{t("video.live.h265")}</p>
            <a class="btn" href={answer.url} download>{t("video.live.h265Download")}</a>
          </div>
        )}
        {failed && state !== "unsupportedCodec" && (
          <div class="vd-overlay" role="alert">
            <p>{message || t(`video.state.${state}`)}</p>
            {state !== "linkExpired" && (
              <button
                type="button"
                class="btn"
                onClick={() => setRun(run + 1)}
              >
                {t("video.live.retry")}
              </button>
            )}
          </div>
        )}
      </div>
      {answer?.audioNote && state === "playing" && (
        <div class="vd-note" data-testid="audio-note">
          {t(answer.audioNote.includes(".") ? answer.audioNote : `errors.${answer.audioNote}`)}
        </div>
      )}
    </div>
  );
}
