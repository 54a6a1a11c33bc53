import type { StoredPosition } from "../devices/model.ts";
import type { PositionBlock } from "./codec.ts";

/**
 * Playback JSON, written by hand: a month of one device is ~270,000 points, and building
 * objects only to stringify them doubles the work. Numbers are rounded to what the data
 * means (1e-6° ≈ 0.1 m, 0.1 km/h, 0.01 km) so float noise does not bloat the answer.
 */
const r6 = (v: number) => Math.round(v * 1e6) / 1e6;
const r1 = (v: number) => Math.round(v * 10) / 10;
const r2 = (v: number) => Math.round(v * 100) / 100;

/** ISO-8601 UTC without allocating a Date per point: the date part is cached per day. */
let cachedDay = -1;
let cachedPrefix = "";
export function isoTime(ms: number): string {
  const day = Math.floor(ms / 86_400_000);
  if (day !== cachedDay) {
    cachedDay = day;
    cachedPrefix = new Date(day * 86_400_000).toISOString().slice(0, 11);
  }
  let rest = ms - day * 86_400_000;
  const h = Math.floor(rest / 3_600_000);
  rest -= h * 3_600_000;
  const m = Math.floor(rest / 60_000);
  rest -= m * 60_000;
  const s = Math.floor(rest / 1000);
  const msPart = rest - s * 1000;
  return `${cachedPrefix}${h < 10 ? "0" : ""}${h}:${m < 10 ? "0" : ""}${m}:${
    s < 10 ? "0" : ""
  }${s}.${msPart < 10 ? "00" : msPart < 100 ? "0" : ""}${msPart}Z`;
}

function json(
  time: number,
  lat: number,
  lng: number,
  speed: number,
  course: number,
  altitude: number,
  posType: number,
  acc: boolean | null,
  satellites: number,
  mileage: number | null,
): string {
  return `{"gpsTime":"${isoTime(time)}","lat":${r6(lat)},"lng":${r6(lng)},"speed":${
    r1(speed)
  },"course":${course},"altitude":${
    r1(altitude)
  },"posType":${posType},"acc":${acc},"satellites":${satellites},"mileage":${
    mileage === null ? null : r2(mileage)
  }}`;
}

export function pointJson(p: StoredPosition): string {
  return json(
    p.time,
    p.lat,
    p.lng,
    p.speed,
    p.course,
    p.altitude,
    p.posType,
    p.acc,
    p.satellites,
    p.mileage,
  );
}

/** The points of a block with from ≤ time ≤ to, as comma-joined JSON objects ("" when none). */
export function blockJson(b: PositionBlock, from: number, to: number): string {
  const parts: string[] = [];
  for (let i = 0; i < b.n; i++) {
    const t = b.time[i];
    if (t < from || t > to) continue;
    const f = b.flags[i];
    parts.push(json(
      t,
      b.lat[i],
      b.lng[i],
      b.speed[i],
      b.course[i],
      b.altitude[i],
      b.posType[i],
      f & 2 ? (f & 4) === 4 : null,
      b.satellites[i],
      Number.isNaN(b.mileage[i]) ? null : b.mileage[i],
    ));
  }
  return parts.join(",");
}
