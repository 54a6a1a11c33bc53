/**
 * The /monitorPlayback page's behaviour: the query, showing a track on the map, seeking and the
 * play loop, export. Functions of the page's state (playback_state.ts).
 */
import { useEffect } from "react";
import { effect } from "@preact/signals";
import { api, ApiError } from "../../lib/client/api.ts";
import type { ObjectsPayload } from "../../modules/monitor/objects.ts";
import { detectStopsIn, indexAt } from "../../modules/monitor/track.ts";
import { MOVING_SPEED_KMH } from "../../modules/devices/model.ts";
import type { TrackColumns } from "../../modules/positions/columns.ts";
import { toGpx, toKml } from "../../modules/monitor/track_export.ts";
import { parseLocal, toLocalInput } from "../../modules/monitor/time.ts";
import { createBaseMap } from "./basemap.ts";
import { TrackLayers } from "./tracklayers.ts";
import { addLandmarks } from "./landmarks.ts";
import { allPoints, columnsToTrack, type Track } from "./trackdata.ts";
import type { PlaybackState } from "./playback_state.ts";

/** 1x plays one minute of track per second. */
const TRACK_MS_PER_SECOND_AT_1X = 60_000;
/** Spec: 31 days per query. */
export const MAX_DAYS = 31;

/** The map, built once in the browser into `mapEl`, and the device list for the picker. */
export function usePlaybackMap(s: PlaybackState, mapEl: { current: HTMLDivElement | null }) {
  useEffect(() => {
    const b = createBaseMap(mapEl.current!, s.settings);
    s.base.current = b;
    s.layers.current = new TrackLayers(b);
    addLandmarks(b, s.t);
    let raf = 0;
    b.map.on("pointermove", (e) => {
      if (e.dragging) return;
      cancelAnimationFrame(raf);
      raf = requestAnimationFrame(() => (s.hover.value = s.layers.current!.nearest(e.pixel)));
    });
    (globalThis as Record<string, unknown>).__tpPlayback = { base: b, layers: s.layers.current };
    api<ObjectsPayload>("/v3/new/monitor/objects").then((d) => {
      s.devices.value = d.imei.map((imei, i) => ({ imei, name: d.name[i] }));
      s.appTypes.current = new Map(d.imei.map((imei, i) => [imei, d.appType[i]]));
    }).catch(() => (s.devices.value = []));
    // The point under the pointer is marked on the map.
    const stopHover = effect(() => {
      const hover = s.hover.value;
      s.layers.current?.showHover(hover);
    });
    return () => {
      stopHover();
      b.map.setTarget(undefined);
    };
  }, []);
}

/** The play loop: track time advances speed × 60 s per second of wall time. */
export function usePlayLoop(s: PlaybackState, playing: boolean, track: Track | null) {
  useEffect(() => {
    s.loop.playing = playing;
    if (!playing || !track) return;
    let last = performance.now(), raf = 0;
    const tick = (nowMs: number) => {
      const dt = nowMs - last;
      last = nowMs;
      const next = s.loop.time + dt * s.speed.peek() * TRACK_MS_PER_SECOND_AT_1X / 1000;
      seek(s, track, next);
      if (next >= track.time[track.n - 1]) {
        s.playing.value = false;
        return;
      }
      raf = requestAnimationFrame(tick);
    };
    raf = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(raf);
  }, [playing, track]);
}

function validate(s: PlaybackState): Record<string, string> {
  const { t } = s, tz = s.settings.timeZone;
  const out: Record<string, string> = {};
  if (!/^\d{15}$/.test(s.imei.value)) out.imei = t("monitor.playback.selectDevice");
  const a = parseLocal(s.from.value, tz), b = parseLocal(s.to.value, tz);
  if (Number.isNaN(a)) out.from = t("validation.required");
  if (Number.isNaN(b)) out.to = t("validation.required");
  if (!out.from && !out.to) {
    if (a > b) out.to = t("errors.startAfterEnd");
    else if (b - a > MAX_DAYS * 86_400_000) {
      out.to = t("errors.playbackRangeTooLong", { days: MAX_DAYS });
    }
  }
  return out;
}

/** Asks for the track of the chosen device and range, then shows it. */
export async function query(s: PlaybackState, e?: Event): Promise<void> {
  e?.preventDefault();
  const errs = validate(s);
  s.errors.value = errs;
  if (Object.keys(errs).length) return;
  s.loading.value = true;
  s.playing.value = false;
  const tz = s.settings.timeZone;
  try {
    // Marks for bench:monitor (request, preparation and drawing of long tracks).
    performance.mark("tp:query:start");
    // The compact columnar answer: ~1/6 of the bytes and no object per point to parse.
    const data = await api<TrackColumns>("/v3/new/monitor/playback", {
      imei: s.imei.value,
      startTime: new Date(parseLocal(s.from.value, tz)).toISOString(),
      endTime: new Date(parseLocal(s.to.value, tz)).toISOString(),
      format: "columns",
    });
    performance.measure("tp:query:data", "tp:query:start");
    performance.mark("tp:track:prepare:start");
    show(s, columnsToTrack(data));
  } catch (err) {
    s.errors.value = { form: err instanceof ApiError ? err.message : String(err) };
  } finally {
    s.loading.value = false;
    s.queried.value = true;
  }
}

function show(s: PlaybackState, tr: Track) {
  const st = detectStopsIn(tr);
  performance.measure("tp:track:prepare", "tp:track:prepare:start");
  performance.mark("tp:track:set");
  s.layers.current!.iconType = s.appTypes.current.get(s.imei.value) ?? 0;
  s.layers.current!.setTrack(tr.lat, tr.lng, st);
  s.base.current!.map.once("postrender", () => {
    performance.measure("tp:track:draw", "tp:track:set");
  });
  s.track.value = tr;
  s.stops.value = st;
  s.hover.value = -1;
  fitTrack(s);
  if (tr.n) s.pane.value = "map";
  seek(s, tr, tr.n ? tr.time[0] : 0);
}

export function fitTrack(s: PlaybackState) {
  const ext = s.layers.current!.extent(), map = s.base.current!.map;
  if (!ext) return;
  map.updateSize();
  const size = map.getSize();
  s.fitPending.current = !size || !size[0] || !size[1];
  if (!s.fitPending.current) {
    map.getView().fit(ext, { padding: [70, 70, 230, 70], maxZoom: 16 });
  }
}

/** Moves the vehicle to a track time (clamped to the track); the map follows while playing. */
export function seek(s: PlaybackState, tr: Track | null, at: number) {
  if (!tr || !tr.n) return;
  const clamped = Math.min(tr.time[tr.n - 1], Math.max(tr.time[0], at));
  s.loop.time = clamped;
  s.time.value = clamped;
  const i = indexAt(tr.time, clamped);
  const j = Math.min(tr.n - 1, i + 1);
  const span = tr.time[j] - tr.time[i];
  const frac = span > 0 ? (clamped - tr.time[i]) / span : 0;
  // Moving or stopped at this point of the track (indexes in STATUSES).
  const status = tr.speed[i] >= MOVING_SPEED_KMH ? 0 : 2;
  const at2 = s.layers.current!.moveTo(i, frac, tr.course[i], status);
  if (s.follow.peek() && s.loop.playing) {
    s.base.current!.map.getView().setCenter(at2);
  }
}

/** The point shown now (-1 without a track). */
export function currentIndex(s: PlaybackState): number {
  const track = s.track.value;
  return track && track.n ? indexAt(track.time, s.time.value) : -1;
}

/** One point back or forward (pauses). */
export function step(s: PlaybackState, d: number) {
  const track = s.track.peek();
  if (!track || !track.n) return;
  s.playing.value = false;
  const i = Math.min(track.n - 1, Math.max(0, indexAt(track.time, s.time.peek()) + d));
  seek(s, track, track.time[i]);
}

/** Quick ranges: today, yesterday, the last 24 hours. */
export function quick(s: PlaybackState, kind: "today" | "yesterday" | "last24") {
  const tz = s.settings.timeZone, n = Date.now();
  const midnight = parseLocal(toLocalInput(n, tz).slice(0, 10) + "T00:00", tz);
  const [a, b] = kind === "today"
    ? [midnight, n]
    : kind === "yesterday"
    ? [midnight - 86_400_000, midnight - 60_000]
    : [n - 86_400_000, n];
  s.from.value = toLocalInput(a, tz);
  s.to.value = toLocalInput(b, tz);
}

export function exportAs(s: PlaybackState, kind: "gpx" | "kml") {
  const track = s.track.peek(), imei = s.imei.peek();
  if (!track) return;
  const name = s.devices.peek().find((d) => d.imei === imei)?.name ?? imei;
  const stamp = s.from.peek().replace(/[-:T]/g, "").slice(0, 12);
  const pts = allPoints(track);
  if (kind === "gpx") {
    download(`${imei}_${stamp}.gpx`, "application/gpx+xml", toGpx(name, pts));
  } else {
    download(`${imei}_${stamp}.kml`, "application/vnd.google-earth.kml+xml", toKml(name, pts));
  }
}

function download(name: string, type: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function duration(ms: number): string {
  const m = Math.round(ms / 60_000);
  return m >= 60 ? `${Math.floor(m / 60)}h ${m % 60}m` : `${m}m`;
}
