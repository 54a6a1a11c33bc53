/**
 * The corridor check behind "route deviation" and "back on route" (the alert engine asks it
 * for every live position, modules/alerts/engine.ts): per device only the routes bound to it,
 * each with its effective window, a bounding-box prefilter and point-to-leg distances in
 * metres (a grid over the legs of long lines, paths_geometry.ts). Memory only: after a
 * restart a device counts as on its route until a fix says otherwise.
 */
import type { RouteTransition, RouteWatch } from "../alerts/types.ts";
import { localClock, minutesOf } from "./paths_clock.ts";
import { type Corridor, corridor, distanceToLineM, insideCorridor } from "./paths_geometry.ts";
import type { PlannedRoute } from "./paths_model.ts";

interface WatchedRoute {
  id: string;
  name: string;
  corridor: Corridor;
  /** Bit n set: effective on ISO weekday n. */
  weekdayMask: number;
  startMinute: number;
  endMinute: number;
  timeZone: string;
  minOffMs: number;
}

interface DeviceOnRoute {
  /** When the device was first seen outside the corridor in this episode. */
  offSince: number | null;
  deviated: boolean;
}

export class CorridorWatch implements RouteWatch {
  private byImei = new Map<string, WatchedRoute[]>();
  private routes = new Map<string, { watched: WatchedRoute; imeis: string[] }>();
  /** imei → route id → state. */
  private states = new Map<string, Map<string, DeviceOnRoute>>();
  readonly stats = { checks: 0 };

  /** Adds or replaces a route (after a save). */
  set(r: PlannedRoute): void {
    this.remove(r.id);
    const watched: WatchedRoute = {
      id: r.id,
      name: r.name,
      corridor: corridor(r.line, r.offset),
      weekdayMask: r.weekdays.reduce((m, d) => m | (1 << d), 0),
      startMinute: minutesOf(r.startTime),
      endMinute: minutesOf(r.endTime),
      timeZone: r.timeZone,
      minOffMs: r.minOffMinutes * 60_000,
    };
    this.routes.set(r.id, { watched, imeis: [...r.imeis] });
    for (const imei of r.imeis) {
      const list = this.byImei.get(imei);
      if (list) list.push(watched);
      else this.byImei.set(imei, [watched]);
    }
  }

  remove(id: string): void {
    const known = this.routes.get(id);
    if (!known) return;
    this.routes.delete(id);
    for (const imei of known.imeis) {
      const left = (this.byImei.get(imei) ?? []).filter((w) => w.id !== id);
      if (left.length) this.byImei.set(imei, left);
      else this.byImei.delete(imei);
      this.states.get(imei)?.delete(id);
    }
  }

  /** Transitions of one live fix against the device's routes (null when it has none). */
  observe(imei: string, lat: number, lng: number, time: number): RouteTransition[] | null {
    const bound = this.byImei.get(imei);
    if (!bound) return null;
    let out: RouteTransition[] | null = null;
    for (const w of bound) {
      this.stats.checks++;
      const st = this.state(imei, w.id);
      if (!effective(w, time)) {
        // Outside the window the rule is asleep: the next window starts afresh.
        st.offSince = null;
        st.deviated = false;
        continue;
      }
      if (insideCorridor(w.corridor, lat, lng)) {
        st.offSince = null;
        if (st.deviated) {
          st.deviated = false;
          (out ??= []).push({ type: "routeReturn", detail: { route: w.name, routeId: w.id } });
        }
        continue;
      }
      st.offSince ??= time;
      if (!st.deviated && time - st.offSince >= w.minOffMs) {
        st.deviated = true;
        (out ??= []).push({
          type: "routeDeviation",
          detail: {
            route: w.name,
            routeId: w.id,
            metres: Math.round(distanceToLineM(w.corridor, lat, lng)),
            minutes: Math.round((time - st.offSince) / 60_000),
          },
        });
      }
    }
    return out;
  }

  private state(imei: string, routeId: string): DeviceOnRoute {
    let m = this.states.get(imei);
    if (!m) this.states.set(imei, m = new Map());
    let s = m.get(routeId);
    if (!s) m.set(routeId, s = { offSince: null, deviated: false });
    return s;
  }
}

/** Whether the rule applies at `time`: its weekday and its window (which may cross midnight). */
function effective(w: WatchedRoute, time: number): boolean {
  const { minute, weekday } = localClock(w.timeZone, time);
  if (!(w.weekdayMask & (1 << weekday))) return false;
  return w.startMinute <= w.endMinute
    ? minute >= w.startMinute && minute <= w.endMinute
    : minute >= w.startMinute || minute <= w.endMinute;
}
