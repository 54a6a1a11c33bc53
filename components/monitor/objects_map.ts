/**
 * The /monitorObject page's map and data: loading the fleet, fitting the view, the popup that
 * follows its vehicle, and the live stream. Functions of the page's state (objects_state.ts).
 */
import { useEffect } from "react";
import { api } from "../../lib/client/api.ts";
import type { ObjectsPayload } from "../../modules/monitor/objects.ts";
import { createBaseMap } from "./basemap.ts";
import { VehicleLayers } from "./vehicles.ts";
import { addLandmarks } from "./landmarks.ts";
import { Fleet } from "./fleet.ts";
import { type LivePosition, openLive } from "./live.ts";
import { AlarmPlaceLayer } from "./alarmplace.ts";
import { OBJECTS_URL, type ObjectsState } from "./objects_state.ts";

/** Vehicles of the fleet at the given indexes, as the map layer draws them. */
function rowsOf(s: ObjectsState, idx: number[]) {
  const f = s.fleet.current!, d = f.data;
  return idx.map((i) => ({
    imei: d.imei[i],
    lat: d.lat[i],
    lng: d.lng[i],
    course: d.course[i],
    status: f.status(i),
    type: d.appType[i],
  }));
}

/**
 * Loads the whole fleet (the first time it also fits the view and marks timings). The first
 * load takes the answer asked when the page's state was made (objects_state.ts).
 */
export async function loadObjects(s: ObjectsState, first: boolean): Promise<void> {
  try {
    const early = first ? s.firstAnswer : null;
    if (first && !early) performance.mark("tp:objects:request");
    const data = await (early ?? api<ObjectsPayload>(OBJECTS_URL));
    if (first) performance.measure("tp:objects:data", "tp:objects:request");
    if (!s.fleet.current) s.fleet.current = new Fleet(data);
    else s.fleet.current.replace(data);
    const all = data.imei.map((_, i) => i);
    s.layers.current?.retain(new Set(data.imei));
    s.layers.current?.upsert(rowsOf(s, all));
    s.loadError.value = "";
    if (first) {
      fitAll(s, s.props.focus);
      // For bench:monitor: from the answer to the first frame with every vehicle.
      performance.mark("tp:objects:added");
      s.base.current?.map.once("postrender", () => {
        performance.measure("tp:objects:drawn", "tp:objects:request");
      });
      s.base.current?.map.render();
    }
    s.version.value++;
  } catch (e) {
    s.loadError.value = (e as Error).message || s.t("monitor.loadFailed");
  } finally {
    s.loading.value = false;
  }
}

/**
 * Room around the alarm place and the vehicle when both are fitted: the card stands above the
 * vehicle on a laptop and over the map's lower part on a phone; the alarm banner is on top.
 */
function alarmPadding(mapWidth: number): number[] {
  return mapWidth < 700 ? [190, 40, 360, 40] : [340, 200, 150, 200];
}

/** Fits the view to one vehicle (with the alarm place, when shown) or to every vehicle. */
export function fitAll(s: ObjectsState, imei?: string): void {
  const b = s.base.current, l = s.layers.current;
  if (!b || !l) return;
  const alarmAt = s.alarmLayer.current?.coordinate();
  if (imei && alarmAt) {
    // The alarm place and the vehicle now, both in view.
    const now = l.coordinateOf(imei) ?? alarmAt;
    b.map.updateSize();
    b.map.getView().fit(
      [
        Math.min(now[0], alarmAt[0]),
        Math.min(now[1], alarmAt[1]),
        Math.max(now[0], alarmAt[0]),
        Math.max(now[1], alarmAt[1]),
      ],
      { padding: alarmPadding(b.map.getSize()?.[0] ?? 1440), maxZoom: 16 },
    );
    return;
  }
  if (imei && l.coordinateOf(imei)) {
    b.map.getView().animate({ center: l.coordinateOf(imei)!, zoom: 15, duration: 0 });
    return;
  }
  const ext = l.extent();
  b.map.updateSize();
  if (ext) b.map.getView().fit(ext, { padding: [60, 60, 60, 60], maxZoom: 15 });
}

/** Puts the popup over the selected vehicle (hidden when nothing is selected). */
export function placePopup(s: ObjectsState): void {
  const el = s.popupEl.current, b = s.base.current, l = s.layers.current;
  if (!el || !b || !l) return;
  const selected = s.selected.peek();
  const at = selected && l.coordinateOf(selected);
  if (!at) {
    el.style.display = "none";
    return;
  }
  // No pixel while the map has no size (a phone showing the list pane).
  const px = b.map.getPixelFromCoordinate(at);
  if (!px) return;
  const [x, y] = px;
  el.style.display = "";
  el.style.transform = `translate(${Math.round(x)}px, ${Math.round(y)}px)`;
}

/** Selects a vehicle from the list: the map pane shows and the view moves to it. */
export function choose(s: ObjectsState, imei: string): void {
  s.selected.value = imei;
  s.pane.value = "map";
  const at = s.layers.current?.coordinateOf(imei);
  if (at) {
    const view = s.base.current!.map.getView();
    view.animate({ center: at, zoom: Math.max(view.getZoom() ?? 0, 14), duration: 300 });
  }
}

/** The map, built once in the browser into `mapEl`, then the first load. */
export function useObjectsMap(s: ObjectsState, mapEl: { current: HTMLDivElement | null }) {
  useEffect(() => {
    const { settings, alarm } = s.props;
    const b = createBaseMap(mapEl.current!, settings, {
      onTilesFailing: (v) => (s.tilesFailing.value = v),
    });
    s.base.current = b;
    s.layers.current = new VehicleLayers(b);
    addLandmarks(b, s.t);
    if (alarm) s.alarmLayer.current = new AlarmPlaceLayer(b, alarm);
    // For e2e tests and the benchmark: the live objects behind the page.
    (globalThis as Record<string, unknown>).__tpMonitor = {
      base: b,
      layers: s.layers.current,
      fleet: s.fleet,
    };
    b.map.on("singleclick", (e) => {
      const hit = s.layers.current!.hit(e.pixel);
      if (hit?.imei) s.selected.value = hit.imei;
      else if (hit?.cluster) {
        b.map.getView().animate({
          center: hit.cluster,
          zoom: (b.map.getView().getZoom() ?? 4) + 2,
          duration: 250,
        });
      } else s.selected.value = "";
    });
    b.map.on("pointermove", (e) => {
      (b.map.getTargetElement() as HTMLElement).style.cursor = s.layers.current!.hit(e.pixel)
        ? "pointer"
        : "";
    });
    // The popup follows its vehicle as the map and the vehicle move.
    b.map.on("postrender", () => placePopup(s));
    loadObjects(s, true);
    return () => b.map.setTarget(undefined);
  }, []);
}

/** Live stream: positions within the flush interval (250 ms) of the stored message. */
export function useLiveStream(s: ObjectsState) {
  useEffect(() => {
    let pending = false;
    // Batches are applied to the map at most every 500 ms: the vehicle layer redraws once per
    // application (on the next animation frame), and 10,000 vehicles at 1 Hz arrive in 4
    // batches a second.
    let queued: LivePosition[] = [];
    let queuedStatus: [string, number][] = [];
    let flushTimer: ReturnType<typeof setTimeout> | 0 = 0;
    const flush = () => {
      flushTimer = 0;
      const f = s.fleet.current;
      if (!f) return;
      const changed = [...f.applyPositions(queued), ...f.applyStatuses(queuedStatus)];
      queued = [];
      queuedStatus = [];
      if (changed.length) s.layers.current?.upsert(rowsOf(s, changed));
    };
    /** Schedules the map batch and, at most once a second, the list's re-sort. */
    const schedule = () => {
      if (!flushTimer) flushTimer = setTimeout(flush, 500);
      if (pending) return;
      pending = true;
      setTimeout(() => {
        pending = false;
        s.version.value++;
      }, 1000);
    };
    const stop = openLive("/v3/new/monitor/stream", {
      connection: (on) => (s.live.value = on),
      positions: (rows) => {
        if (!s.fleet.current) return;
        queued.push(...rows);
        schedule();
      },
      statuses: (rows) => {
        if (!s.fleet.current) return;
        queuedStatus.push(...rows);
        schedule();
      },
    });
    return () => {
      stop();
      if (flushTimer) clearTimeout(flushTimer);
    };
  }, []);
}
