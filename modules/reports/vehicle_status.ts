/**
 * Vehicle status: one row per device (request order) — its current status and last position
 * from the device directory, the range's distance, driving, idling time and top speed from
 * the day summaries (whole UTC days the range touches), and its parking time (parking
 * segments cut to the range).
 */
import { deriveStatus, type Device } from "../devices/model.ts";
import type { Page, ReportQuery, ReportSources, Row } from "./context.ts";
import { mapLimit, READ_CONCURRENCY } from "./merge.ts";
import { deviceCells, fillAddresses, iso, km, kmh, type Place } from "./rows.ts";

export async function vehicleStatusReport(s: ReportSources, q: ReportQuery): Promise<Page> {
  const page = q.devices.slice(q.skip, q.skip + q.take);
  const list = await mapLimit(page, READ_CONCURRENCY, (d) => statusRow(s, q, d));
  const places: Place[] = [];
  list.forEach((row, i) => {
    if (typeof row.lat === "number" && typeof row.lng === "number") {
      places.push({ row, field: "address", lat: row.lat, lng: row.lng, userId: page[i].userId });
    }
  });
  await fillAddresses(s, q, places);
  return { total: q.devices.length, list };
}

async function statusRow(s: ReportSources, q: ReportQuery, d: Device): Promise<Row> {
  const [days, parking] = await Promise.all([
    s.motion.days(d.imei, q.from, q.to),
    s.motion.segments("parking", d.imei, q.from, q.to),
  ]);
  let distance = 0, drivingTime = 0, idlingTime = 0, maxSpeed = 0, trips = 0;
  for (const day of days) {
    distance += day.distance;
    drivingTime += day.drivingSeconds;
    idlingTime += day.idlingSeconds;
    maxSpeed = Math.max(maxSpeed, day.maxSpeed);
    trips += day.trips;
  }
  let parkingMs = 0;
  for (const p of parking) parkingMs += Math.min(p.end, q.to) - Math.max(p.start, q.from);
  const state = s.directory.state(d.imei) ?? null;
  const last = state?.position ?? null;
  return {
    ...deviceCells(d),
    status: deriveStatus(state, q.now, s.offlineMs),
    distance: km(distance),
    drivingTime: Math.round(drivingTime),
    idlingTime: Math.round(idlingTime),
    parkingTime: Math.round(Math.max(0, parkingMs) / 1000),
    maxSpeed: kmh(maxSpeed),
    trips,
    lastTime: state?.gpsTime ? iso(state.gpsTime) : null,
    lat: last?.lat ?? null,
    lng: last?.lng ?? null,
    address: "",
  };
}
