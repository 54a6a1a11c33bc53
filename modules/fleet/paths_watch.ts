/**
 * The corridor check behind "route deviation" and "back on route" (the alert engine asks it
 * for every live position, modules/alerts/engine.ts): per device only the routes bound to it,
 * each with its effective window, a bounding-box prefilter and point-to-leg distances in
 * metres (a grid over the legs of long lines, paths_geometry.ts). Memory only: after a
 * restart a device counts as on its route until a fix says otherwise.
 */
import type { RouteTransition, RouteWatch } from "../alerts/types.ts";
import { localClock, minutesOf } from "./paths_clock.ts";
import { type Corridor, corridor, distanceToLineM, legWithin } from "./paths_geometry.ts";
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
  /** The epoch minute `effective` last answered for, and its answer (devices share it). */
  minute: number;
  on: boolean;
}

interface DeviceOnRoute {
  /** When the device was first seen outside the corridor in this episode. */
  offSince: number | null;
  deviated: boolean;
  /** The leg the device was last found on (-1: none): checked first next time. */
  leg: number;
}

/** One device's routes, with its state on each (same order): one map lookup per fix. */
interface Binding {
  routes: WatchedRoute[];
  states: DeviceOnRoute[];
}

export class CorridorWatch implements RouteWatch {
  private byImei = new Map<string, Binding>();
  private routes = new Map<string, { watched: WatchedRoute; imeis: string[] }>();
  readonly stats = { checks: 0 };

  /** Adds or replaces a route (after a save); its devices start on route. */
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
      minute: NaN,
      on: false,
    };
    this.routes.set(r.id, { watched, imeis: [...r.imeis] });
    for (const imei of r.imeis) {
      let b = this.byImei.get(imei);
      if (!b) this.byImei.set(imei, b = { routes: [], states: [] });
      b.routes.push(watched);
      b.states.push({ offSince: null, deviated: false, leg: -1 });
    }
  }

  remove(id: string): void {
    const known = this.routes.get(id);
    if (!known) return;
    this.routes.delete(id);
    for (const imei of known.imeis) {
      const b = this.byImei.get(imei);
      const i = b ? b.routes.findIndex((w) => w.id === id) : -1;
      if (!b || i < 0) continue;
      b.routes.splice(i, 1);
      b.states.splice(i, 1);
      if (!b.routes.length) this.byImei.delete(imei);
    }
  }

  /** Transitions of one live fix against the device's routes (null when it has none). */
  observe(imei: string, lat: number, lng: number, time: number): RouteTransition[] | null {
    const b = this.byImei.get(imei);
    if (!b) return null;
    let out: RouteTransition[] | null = null;
    for (let i = 0; i < b.routes.length; i++) {
      const w = b.routes[i], st = b.states[i];
      this.stats.checks++;
      if (!effective(w, time)) {
        // Outside the window the rule is asleep: the next window starts afresh.
        st.offSince = null;
        st.deviated = false;
        continue;
      }
      st.leg = legWithin(w.corridor, lat, lng, st.leg);
      if (st.leg >= 0) {
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
}

/** Whether the rule applies at `time`: its weekday and its window (which may cross midnight). */
function effective(w: WatchedRoute, time: number): boolean {
  const epochMinute = Math.floor(time / 60_000);
  if (epochMinute === w.minute) return w.on;
  w.minute = epochMinute;
  return w.on = windowHolds(w, time);
}

function windowHolds(w: WatchedRoute, time: number): boolean {
  const { minute, weekday } = localClock(w.timeZone, time);
  if (!(w.weekdayMask & (1 << weekday))) return false;
  return w.startMinute <= w.endMinute
    ? minute >= w.startMinute && minute <= w.endMinute
    : minute >= w.startMinute || minute <= w.endMinute;
}
