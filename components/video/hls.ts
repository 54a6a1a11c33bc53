/**
 * HLS playback in a `<video>` element: hls.js where Media Source Extensions exist, the
 * browser's own HLS (Safari, iOS) otherwise. The player is built in an effect and destroyed
 * when the element goes away or the URL changes, so no stream keeps loading after a close.
 */
import Hls from "hls.js";
import { type RefObject, useEffect, useRef } from "react";
import type { VideoCodec } from "../../modules/video/model.ts";

/** hls.js settings for live: start about three segments behind the edge, catch up gently. */
const LIVE_CONFIG = {
  lowLatencyMode: true,
  liveSyncDurationCount: 3,
  liveMaxLatencyDurationCount: 6,
  maxLiveSyncPlaybackRate: 1.5,
  backBufferLength: 10,
  maxBufferLength: 8,
  manifestLoadingMaxRetry: 6,
  levelLoadingMaxRetry: 6,
  fragLoadingMaxRetry: 6,
};
/** Seconds buffered before a live stream starts playing, or how long it waits at most. */
const LIVE_START_BUFFER_S = 2;
const LIVE_START_WAIT_MS = 4000;
/** History and public history: a VOD-like playlist that may still grow while the device sends. */
const HISTORY_CONFIG = { backBufferLength: 60, maxBufferLength: 30, manifestLoadingMaxRetry: 6 };

/** The codec strings MSE is asked about (H.265 as `hvc1`, the tag fMP4 segments use). */
const CODEC_PROBE: Record<VideoCodec, string> = {
  h264: 'video/mp4; codecs="avc1.42E01E"',
  h265: 'video/mp4; codecs="hvc1.1.6.L93.B0"',
};

/** Whether this browser can play `codec` (unknown codecs are tried). */
export function canPlayCodec(codec: VideoCodec | null): boolean {
  if (!codec) return true;
  const MS = (globalThis as { MediaSource?: typeof MediaSource }).MediaSource;
  if (MS?.isTypeSupported) return MS.isTypeSupported(CODEC_PROBE[codec]);
  // Without MSE (iOS Safari plays HLS itself): ask the element.
  return document.createElement("video").canPlayType(CODEC_PROBE[codec]) !== "";
}

export interface PlaybackEvents {
  /** The first frame is showing. */
  onPlaying?: () => void;
  /** A fatal error hls.js could not recover from (HTTP status when the playlist failed). */
  onFatal?: (status: number | null) => void;
}

/**
 * Plays `url` in the element while it is set. Muted so browsers allow autoplay; the user
 * unmutes with the element's controls.
 */
export function useHlsPlayback(
  video: RefObject<HTMLVideoElement>,
  url: string | null,
  mode: "live" | "history",
  events: PlaybackEvents,
) {
  // The latest callbacks, without rebuilding the player when they change.
  const on = useRef(events);
  on.current = events;
  useEffect(() => {
    const el = video.current;
    if (!el || !url) return;
    el.muted = true;
    const playing = () => on.current.onPlaying?.();
    el.addEventListener("playing", playing);
    const start = () => void el.play().catch(() => {});
    if (!Hls.isSupported()) {
      // Safari and iOS play HLS natively.
      el.src = url;
      el.addEventListener("loadedmetadata", start, { once: true });
      const failed = () => on.current.onFatal?.(null);
      el.addEventListener("error", failed);
      return () => {
        el.removeEventListener("playing", playing);
        el.removeEventListener("error", failed);
        el.removeAttribute("src");
        el.load();
      };
    }
    const hls = new Hls(mode === "live" ? LIVE_CONFIG : HISTORY_CONFIG);
    if (mode === "live") {
      // A stream that just started lists one or two segments: playing at once would sit on
      // the live edge and stall at every segment boundary, so wait for some buffer first.
      const startWhenBuffered = () => {
        const ahead = el.buffered.length
          ? el.buffered.end(el.buffered.length - 1) - el.currentTime
          : 0;
        if (ahead < LIVE_START_BUFFER_S && performance.now() - created < LIVE_START_WAIT_MS) return;
        hls.off(Hls.Events.FRAG_BUFFERED, startWhenBuffered);
        start();
      };
      const created = performance.now();
      hls.on(Hls.Events.FRAG_BUFFERED, startWhenBuffered);
    } else {
      hls.on(Hls.Events.MANIFEST_PARSED, start);
    }
    hls.on(Hls.Events.ERROR, (_e, data) => {
      if (!data.fatal) return;
      if (data.type === Hls.ErrorTypes.MEDIA_ERROR) {
        hls.recoverMediaError();
        return;
      }
      on.current.onFatal?.(data.response?.code ?? null);
    });
    hls.loadSource(url);
    hls.attachMedia(el);
    return () => {
      el.removeEventListener("playing", playing);
      hls.destroy();
    };
  }, [url]);
}
