/** Formatting in the user's units and time zone, built once per island. */
import {
  distanceUnit,
  formatDistance,
  formatSpeed,
  speedUnit,
} from "../../modules/monitor/units.ts";
import { formatTime } from "../../modules/monitor/time.ts";
import { compass } from "../../modules/monitor/geo.ts";

export interface Formatter {
  speed(kmh: number): string;
  distance(km: number): string;
  time(ms: number | null): string;
  coords(lat: number, lng: number): string;
  compass(course: number): string;
}

export function formatter(
  settings: { distanceUnit: string; speedUnit: string; timeZone: string },
  t: (k: string) => string,
): Formatter {
  const du = distanceUnit(settings.distanceUnit), su = speedUnit(settings.speedUnit);
  return {
    speed: (kmh) => formatSpeed(kmh, su),
    distance: (km) => formatDistance(km, du),
    time: (ms) => formatTime(ms, settings.timeZone),
    coords: (lat, lng) => `${lat.toFixed(6)}, ${lng.toFixed(6)}`,
    compass: (course) => t(`monitor.compass.${compass(course)}`),
  };
}
