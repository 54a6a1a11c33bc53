import { BizError } from "../../lib/errors.ts";
import type { Session } from "../../lib/http/env.ts";
import { haversine } from "../monitor/geo.ts";
import type { MonitorService } from "../monitor/service.ts";
import { AREA_MAX_KM, AREA_MAX_RESULTS, type AreaHit } from "./model.ts";

/**
 * Area car-finding: the caller's visible devices whose last fix lies within a radius (more
 * than 0, less than 50 km) of a point, nearest first. Reads the monitor's objects (the same
 * visibility as the map).
 */
export class AreaSearch {
  constructor(private readonly monitor: Pick<MonitorService, "objects">) {}

  async search(
    session: Session,
    q: { lat: number; lng: number; radiusKm: number },
  ): Promise<{ total: number; list: AreaHit[] }> {
    if (!(q.radiusKm > 0 && q.radiusKm < AREA_MAX_KM)) {
      throw new BizError("areaRadiusInvalid", { max: AREA_MAX_KM }, { field: "radiusKm" });
    }
    const o = await this.monitor.objects(session);
    const hits: AreaHit[] = [];
    for (let i = 0; i < o.imei.length; i++) {
      const lat = o.lat[i], lng = o.lng[i];
      if (lat === null || lng === null) continue;
      const km = haversine(q.lat, q.lng, lat, lng) / 1000;
      if (km > q.radiusKm) continue;
      hits.push({
        imei: o.imei[i],
        name: o.name[i],
        status: o.statuses[o.status[i]],
        lat,
        lng,
        distanceKm: Math.round(km * 1000) / 1000,
        gpsTime: o.gpsTime[i],
      });
    }
    hits.sort((a, b) => a.distanceKm - b.distanceKm);
    return { total: hits.length, list: hits.slice(0, AREA_MAX_RESULTS) };
  }
}
