/**
 * Road-snapped route lines from an OSRM-compatible routing server (ROUTING_URL):
 * `/route/v1/driving/lng,lat;lng,lat…?overview=full&geometries=geojson` answers the road
 * geometry as GeoJSON coordinates [lng, lat]. The address is the operator's (configuration),
 * never a user's, so a plain fetch with a timeout is used, as for GEOCODER_URL.
 */
import { BizError } from "../../lib/errors.ts";
import { log } from "../../lib/log.ts";
import type { RoutePoint } from "./paths_model.ts";

const routingLog = log.area("fleet");

/** Most points of a snapped line kept (8 bytes each in the store: the value stays < 64 KiB). */
const MAX_LINE_POINTS = 4000;

export interface RoadRouter {
  /** The road line through the points in order; throws "route generation failed". */
  snap(points: readonly RoutePoint[]): Promise<RoutePoint[]>;
}

export class OsrmRouter implements RoadRouter {
  private readonly base: string;

  constructor(url: string, private readonly timeoutMs = 10_000) {
    this.base = url.replace(/\/+$/, "");
  }

  async snap(points: readonly RoutePoint[]): Promise<RoutePoint[]> {
    const coords = points.map((p) => `${p.lng.toFixed(6)},${p.lat.toFixed(6)}`).join(";");
    const url = `${this.base}/route/v1/driving/${coords}?overview=full&geometries=geojson`;
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(this.timeoutMs) });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      const body = await res.json() as {
        code?: string;
        routes?: { geometry?: { coordinates?: unknown } }[];
      };
      const line = toPoints(body.routes?.[0]?.geometry?.coordinates);
      if (body.code !== "Ok" || line.length < 2) throw new Error(`answer ${body.code}`);
      return thin(line);
    } catch (e) {
      routingLog.warn(`routing server failed: ${(e as Error).message}`);
      throw new BizError("routeGenerationFailed");
    }
  }
}

function toPoints(coords: unknown): RoutePoint[] {
  if (!Array.isArray(coords)) return [];
  const out: RoutePoint[] = [];
  for (const c of coords) {
    if (!Array.isArray(c) || typeof c[0] !== "number" || typeof c[1] !== "number") return [];
    if (Math.abs(c[1]) > 90 || Math.abs(c[0]) > 180) return [];
    out.push({ lat: c[1], lng: c[0] });
  }
  return out;
}

/** Keeps every k-th point (and the last) so a stored route stays a bounded KV value. */
function thin(line: RoutePoint[]): RoutePoint[] {
  if (line.length <= MAX_LINE_POINTS) return line;
  const k = Math.ceil(line.length / MAX_LINE_POINTS);
  const out = line.filter((_, i) => i % k === 0);
  if (out[out.length - 1] !== line[line.length - 1]) out.push(line[line.length - 1]);
  return out;
}
