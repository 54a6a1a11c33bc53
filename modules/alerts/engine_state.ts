/**
 * What the alert engine remembers per device between positions (engine.ts), and its stored
 * form (cluster mode, issue 23: persisted per device so the instance that takes a device over
 * continues from it instead of raising enter/exit, stay or threshold alerts again).
 */
import type { LatLng } from "../geofences/geometry.ts";
import type { DeviceAlertSettings } from "./schemas.ts";

export interface DeviceTrack {
  last: (LatLng & { time: number; speed: number; acc: boolean | null }) | null;
  /** Fence id → since when the device is inside. */
  inside: Map<string, number>;
  /** Fence id → when the device was last seen inside (or first tracked). */
  lastInside: Map<string, number>;
  /** Fences whose not-in / not-out alert already fired for the current period. */
  firedLong: Set<string>;
  overspeedSince: number | null;
  overspeedFired: boolean;
  stoppedSince: number | null;
  stayFired: boolean;
  temperature: "ok" | "high" | "low";
  mileageFired: boolean;
  maintenanceFired: boolean;
  accOnMs: number;
  accFired: boolean;
  /** "yyyy-mm-dd#range" keys of night ranges already reported. */
  nightFired: Set<string>;
  offlineAnnounced: number | null;
  offlineFired: boolean;
  /** Settings object the counters belong to: new settings restart the counters. */
  settings: DeviceAlertSettings | undefined;
}

/** A device's track as stored: plain arrays, and the settings the counters belong to as text. */
export interface SavedTrack {
  last: DeviceTrack["last"];
  inside: [string, number][];
  lastInside: [string, number][];
  firedLong: string[];
  overspeedSince: number | null;
  overspeedFired: boolean;
  stoppedSince: number | null;
  stayFired: boolean;
  temperature: DeviceTrack["temperature"];
  mileageFired: boolean;
  maintenanceFired: boolean;
  accOnMs: number;
  accFired: boolean;
  nightFired: string[];
  offlineAnnounced: number | null;
  offlineFired: boolean;
  /** JSON of the settings the counters were kept under (null: none). */
  settings: string | null;
}

export function newTrack(): DeviceTrack {
  return {
    last: null,
    inside: new Map(),
    lastInside: new Map(),
    firedLong: new Set(),
    overspeedSince: null,
    overspeedFired: false,
    stoppedSince: null,
    stayFired: false,
    temperature: "ok",
    mileageFired: false,
    maintenanceFired: false,
    accOnMs: 0,
    accFired: false,
    nightFired: new Set(),
    offlineAnnounced: null,
    offlineFired: false,
    settings: undefined,
  };
}

export function saveTrack(t: DeviceTrack): SavedTrack {
  return {
    ...t,
    last: t.last && { ...t.last },
    inside: [...t.inside],
    lastInside: [...t.lastInside],
    firedLong: [...t.firedLong],
    nightFired: [...t.nightFired],
    settings: t.settings ? JSON.stringify(t.settings) : null,
  };
}

/**
 * The track from its stored form. The counters stay armed as stored only when the device's
 * settings are still the ones they were kept under (otherwise the engine restarts them, as it
 * does when settings change).
 */
export function loadTrack(s: SavedTrack, current: DeviceAlertSettings | undefined): DeviceTrack {
  const same = (current ? JSON.stringify(current) : null) === s.settings;
  return {
    ...s,
    inside: new Map(s.inside),
    lastInside: new Map(s.lastInside),
    firedLong: new Set(s.firedLong),
    nightFired: new Set(s.nightFired),
    settings: same ? current : undefined,
  };
}
