/**
 * The sensor reports built from events: OBD fault codes, clock-ins (RFID card and Bluetooth;
 * filter all, 1 clock-in, 2 clock-in and out as shifts) and driving behaviour (harsh
 * acceleration, braking and cornering per 100 km, and a score).
 */
import type { Device } from "../devices/model.ts";
import type { SensorEvent, SensorEventKind } from "../sensors/types.ts";
import type { Page, ReportQuery, ReportSources, Row } from "./context.ts";
import { mapLimit, READ_CONCURRENCY } from "./merge.ts";
import { deviceCells, iso, km, seconds } from "./rows.ts";
import type { ClockFilter } from "./sensor_model.ts";
import { answer, r2, sensorPaged, splitSupported, SUPPORTS } from "./sensor_support.ts";

const located = (e: { lat?: number; lng?: number }) =>
  e.lat !== undefined && e.lng !== undefined ? [{ field: "address", lat: e.lat, lng: e.lng }] : [];

const text = (v: unknown) => (v === null || v === undefined ? "" : String(v));

/** OBD fault codes as the device reported them (several codes joined by ", "). */
export async function obdFaultReport(s: ReportSources, q: ReportQuery): Promise<Page> {
  const p = await sensorPaged<SensorEvent>(s, q, SUPPORTS.obdFault, {
    read: (d) => s.sensors!.events(d.imei, ["obdFault"], q.from, q.to),
    time: (e) => e.time,
    row: (e, d) => ({
      ...deviceCells(d),
      time: iso(e.time),
      faultCode: text(e.data.codes ?? e.data.code).split(/[,;\s]+/).filter(Boolean).join(", "),
      lat: e.lat ?? null,
      lng: e.lng ?? null,
      address: "",
    }),
    places: located,
  });
  return answer(p);
}

/** One clock-in row: a swipe, or (filter 2) a shift from clock-in to clock-out. */
interface Clocking {
  time: number;
  row: Record<string, unknown>;
  lat?: number;
  lng?: number;
}

const cardOf = (e: SensorEvent) => text(e.data.cardNo ?? e.data.card ?? e.data.mac);

/**
 * Shifts from a device's swipes: a clock-in opens the card's shift, its next clock-out closes
 * it (an out without an in makes a shift without a start; an in never closed has no end).
 */
export function shifts(events: SensorEvent[], inKind: SensorEventKind): Clocking[] {
  const open = new Map<string, Clocking & { start: number }>();
  const out: Clocking[] = [];
  for (const e of events) {
    const card = cardOf(e);
    if (e.kind === inKind) {
      const prev = open.get(card);
      if (prev) out.push(prev);
      const shift = {
        time: e.time,
        start: e.time,
        lat: e.lat,
        lng: e.lng,
        row: {
          cardNo: card,
          driverName: text(e.data.driverName),
          clockInTime: iso(e.time),
          clockOutTime: null as string | null,
          duration: null as number | null,
        },
      };
      open.set(card, shift);
    } else {
      // A removal may not name its card (JT/T 808 0x0702 state 2): it ends the latest shift.
      const key = open.has(card) ? card : card === "" ? [...open.keys()].pop() : undefined;
      const shift = key === undefined ? undefined : open.get(key);
      if (shift) {
        open.delete(key!);
        shift.row.clockOutTime = iso(e.time);
        shift.row.duration = seconds(shift.start, e.time);
        out.push(shift);
      } else {
        out.push({
          time: e.time,
          row: {
            cardNo: card,
            driverName: text(e.data.driverName),
            clockInTime: null,
            clockOutTime: iso(e.time),
            duration: null,
          },
        });
      }
    }
  }
  out.push(...open.values());
  return out.sort((a, b) => a.time - b.time);
}

export async function clockInReport(
  s: ReportSources,
  q: ReportQuery,
  kind: "rfid" | "bluetooth",
  filter: ClockFilter,
): Promise<Page> {
  const inKind: SensorEventKind = kind === "rfid" ? "rfidIn" : "bluetoothIn";
  const outKind: SensorEventKind = kind === "rfid" ? "rfidOut" : "bluetoothOut";
  const kinds = filter === 1 ? [inKind] : [inKind, outKind];
  const p = await sensorPaged<Clocking>(s, q, SUPPORTS[kind], {
    read: async (d) => {
      const events = await s.sensors!.events(d.imei, kinds, q.from, q.to);
      if (filter === 2) return shifts(events, inKind);
      return events.map((e) => ({
        time: e.time,
        lat: e.lat,
        lng: e.lng,
        row: {
          time: iso(e.time),
          clockType: e.kind === inKind ? "in" : "out",
          cardNo: cardOf(e),
          driverName: text(e.data.driverName),
          lat: e.lat ?? null,
          lng: e.lng ?? null,
          address: "",
        },
      }));
    },
    time: (c) => c.time,
    row: (c, d) => ({ ...deviceCells(d), ...c.row }),
    places: (c) => (filter === 2 ? [] : located(c)),
  });
  return answer(p);
}

const HARSH: SensorEventKind[] = ["harshAcceleration", "harshBraking", "harshCornering"];
/** Under this distance (km) events per 100 km and the score are not given. */
const MIN_SCORE_KM = 1;
/** Points lost per harsh event per 100 km (docs/decisions.md "Sensor reports"). */
const POINTS_PER_EVENT = 10;

/** Events per 100 km and the score (100 − 10 per event per 100 km, at least 0). */
export function behaviourScore(events: number, distanceKm: number) {
  if (distanceKm < MIN_SCORE_KM) return { eventsPer100km: null, score: null };
  const per100 = (events / distanceKm) * 100;
  return {
    eventsPer100km: r2(per100),
    score: Math.max(0, Math.round(100 - POINTS_PER_EVENT * per100)),
  };
}

/** One row per device (request order): its harsh events and distance over the range. */
export async function drivingBehaviorReport(s: ReportSources, q: ReportQuery): Promise<Page> {
  const split = await splitSupported(s, q, SUPPORTS.behavior);
  const page = split.q.devices.slice(q.skip, q.skip + q.take);
  const list = await mapLimit(page, READ_CONCURRENCY, async (d: Device): Promise<Row> => {
    const [events, days] = await Promise.all([
      s.sensors!.events(d.imei, HARSH, q.from, q.to),
      s.motion.days(d.imei, q.from, q.to),
    ]);
    const count = (k: SensorEventKind) => events.filter((e) => e.kind === k).length;
    const distance = days.reduce((a, x) => a + x.distance, 0);
    return {
      ...deviceCells(d),
      distance: km(distance),
      harshAcceleration: count("harshAcceleration"),
      harshBraking: count("harshBraking"),
      harshCornering: count("harshCornering"),
      ...behaviourScore(events.length, distance),
    };
  });
  return { total: split.q.devices.length, list, unsupported: split.unsupported };
}
