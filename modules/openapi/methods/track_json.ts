/**
 * jimi.device.track.list's points as JSON, written from the position store's blocks and cached
 * there per block (positions/store.ts rangeParts): a week at 10 s is ~9 MB, which as objects
 * and JSON.stringify took ~250 ms a call; cached fragments are joined in a few milliseconds.
 */
import type { StoredPosition } from "../../devices/model.ts";
import type { PositionBlock } from "../../positions/codec.ts";
import type { BlockFormat } from "../../positions/types.ts";
import { type MapType, onMap, POS_TYPE_NAMES } from "./common.ts";

const encoder = new TextEncoder();
const two = (n: number) => (n < 10 ? "0" : "") + n;

/** Writes points as `{"lat":…,"lng":…,"gpsTime":"yyyy-MM-dd HH:mm:ss",…}` joined by commas. */
class TrackWriter {
  private out = "";
  private day = NaN;
  private dayPrefix = "";

  constructor(private readonly map: MapType) {}

  point(
    time: number,
    lat: number,
    lng: number,
    speed: number,
    course: number,
    posType: number,
    satellites: number,
    altitude: number,
    acc: boolean | null,
  ): void {
    const [x, y] = onMap(this.map, lng, lat);
    const day = Math.floor(time / 86_400_000);
    if (day !== this.day) {
      this.day = day;
      this.dayPrefix = new Date(day * 86_400_000).toISOString().slice(0, 10);
    }
    const s = Math.floor((time - day * 86_400_000) / 1000);
    const clock = `${two(Math.floor(s / 3600))}:${two(Math.floor(s / 60) % 60)}:${two(s % 60)}`;
    this.out += `${this.out ? "," : ""}{"lat":${Math.round(y * 1e6) / 1e6},"lng":${
      Math.round(x * 1e6) / 1e6
    },"gpsTime":"${this.dayPrefix} ${clock}","direction":${Math.round(course)},"gpsSpeed":${
      Math.round(speed)
    },"posType":"${POS_TYPE_NAMES[posType] ?? ""}","satellite":${satellites},"altitude":${
      Math.round(altitude)
    },"accStatus":${acc === null ? "null" : acc ? 1 : 0}}`;
  }

  bytes(): Uint8Array {
    return encoder.encode(this.out);
  }
}

/** The Open API's track form on a map; located fixes only. */
export function trackFormat(map: MapType): BlockFormat {
  return {
    id: `openapi-track:${map ?? "WGS84"}`,
    block(b: PositionBlock, from: number, to: number) {
      const w = new TrackWriter(map);
      for (let i = 0; i < b.n; i++) {
        const t = b.time[i], f = b.flags[i];
        if (t < from || t > to || !(f & 1)) continue;
        w.point(
          t,
          b.lat[i],
          b.lng[i],
          b.speed[i],
          b.course[i],
          b.posType[i],
          b.satellites[i],
          b.altitude[i],
          f & 2 ? !!(f & 4) : null,
        );
      }
      return w.bytes();
    },
    points(points: StoredPosition[]) {
      const w = new TrackWriter(map);
      for (const p of points) {
        if (!p.valid) continue;
        w.point(
          p.time,
          p.lat,
          p.lng,
          p.speed,
          p.course,
          p.posType,
          p.satellites,
          p.altitude,
          p.acc,
        );
      }
      return w.bytes();
    },
  };
}
