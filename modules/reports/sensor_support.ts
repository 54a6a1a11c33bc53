/**
 * What every sensor report shares: which devices report the sensor at all (the others are
 * answered in `unsupported`, never as rows of zeros), the time-ordered paging of Reports I over
 * the devices that do, series joined by time and probe, and chart lines thinned for drawing.
 */
import type { Device } from "../devices/model.ts";
import type { SensorEventKind, SensorSample, SensorSeries } from "../sensors/types.ts";
import type { Page, ReportQuery, ReportSources } from "./context.ts";
import { mapLimit, READ_CONCURRENCY } from "./merge.ts";
import { pagedByTime, type TimedView } from "./paged.ts";
import { CHART_DEVICES, CHART_POINTS, type ChartLine } from "./sensor_model.ts";

/** What a device has ever reported (SensorReader.reports). */
export interface Reported {
  series: ReadonlySet<SensorSeries>;
  events: ReadonlySet<SensorEventKind>;
}

const anyOf = (r: Reported, series: SensorSeries[], events: SensorEventKind[] = []) =>
  series.some((x) => r.series.has(x)) || events.some((x) => r.events.has(x));

const OBD: SensorSeries[] = [
  "obdSpeed",
  "obdRpm",
  "obdCoolant",
  "obdFuelRate",
  "obdOdometer",
  "obdThrottle",
  "obdEngineLoad",
];

/** Whether a device has the sensor a report needs (SENSOR_NEED's keys). */
export const SUPPORTS: Record<string, (r: Reported) => boolean> = {
  battery: (r) => anyOf(r, ["batteryVoltage", "batteryPercent"]),
  externalPower: (r) => anyOf(r, ["externalVoltage"]),
  fuel: (r) => anyOf(r, ["fuelLitres", "fuelPercent"], ["refuel", "drain"]),
  temperature: (r) => anyOf(r, ["temperature", "humidity"]),
  logistics: (r) => anyOf(r, ["temperature", "door"]),
  obd: (r) => anyOf(r, OBD, ["obdTrip"]),
  obdFault: (r) => anyOf(r, OBD, ["obdFault"]),
  behavior: (r) => anyOf(r, [], ["harshAcceleration", "harshBraking", "harshCornering"]),
  rfid: (r) => anyOf(r, [], ["rfidIn", "rfidOut"]),
  bluetooth: (r) => anyOf(r, [], ["bluetoothIn", "bluetoothOut"]),
  odometer: (r) => anyOf(r, ["obdOdometer"]),
  sensor: (r) => anyOf(r, ["temperature", "humidity", "door", "light"]),
  door: (r) => anyOf(r, ["door"]),
  light: (r) => anyOf(r, ["light"]),
  humidity: (r) => anyOf(r, ["humidity"]),
};

/** What each device has reported, by IMEI. */
export async function reportedBy(
  s: ReportSources,
  devices: Device[],
): Promise<Map<string, Reported>> {
  const sensors = s.sensors;
  const answers = await mapLimit(
    devices,
    READ_CONCURRENCY,
    (d) => sensors ? sensors.reports(d.imei) : Promise.resolve({ series: [], events: [] }),
  );
  const out = new Map<string, Reported>();
  devices.forEach((d, i) => {
    out.set(d.imei, { series: new Set(answers[i].series), events: new Set(answers[i].events) });
  });
  return out;
}

/** The query's devices split into those with the sensor and the IMEIs of the others. */
export async function splitSupported(
  s: ReportSources,
  q: ReportQuery,
  supports: (r: Reported) => boolean,
): Promise<{ q: ReportQuery; unsupported: string[]; reported: Map<string, Reported> }> {
  const reported = await reportedBy(s, q.devices);
  const devices = q.devices.filter((d) => supports(reported.get(d.imei)!));
  const unsupported = q.devices.filter((d) => !devices.includes(d)).map((d) => d.imei);
  return { q: { ...q, devices }, unsupported, reported };
}

/** A sensor page: the page of the supported devices, `unsupported` listing the others. */
export interface SensorPage extends Page {
  unsupported: string[];
}

/**
 * Reports I's time-ordered paging over the devices that report the sensor; `lists` hands the
 * whole range's entries per device to what the first page adds (chart, summaries).
 */
export async function sensorPaged<T>(
  s: ReportSources,
  q: ReportQuery,
  supports: (r: Reported) => boolean,
  view: TimedView<T>,
): Promise<SensorPage & { lists: Map<Device, T[]>; q: ReportQuery }> {
  const split = await splitSupported(s, q, supports);
  const lists = new Map<Device, T[]>();
  const page = await pagedByTime(s, split.q, {
    ...view,
    read: async (d) => {
      const list = await view.read(d);
      lists.set(d, list);
      return list;
    },
  });
  return { ...page, unsupported: split.unsupported, lists, q: split.q };
}

/** Strips the paging internals of sensorPaged before answering. */
export const answer = (
  p: SensorPage & { lists?: unknown; q?: unknown },
  extra: Record<string, unknown> = {},
): SensorPage => ({ total: p.total, list: p.list, unsupported: p.unsupported, ...extra });

/** One moment of several series joined: series key → value, per probe index. */
export interface Joined {
  time: number;
  index: number;
  lat?: number;
  lng?: number;
  values: Partial<Record<SensorSeries, number>>;
}

/**
 * Reads series of one device and joins them by (time, probe): a probe's temperature and
 * humidity reported together make one entry; a value missing at that moment stays absent.
 * Answers in time order (probes in order within a moment).
 */
export async function readJoined(
  s: ReportSources,
  imei: string,
  series: readonly SensorSeries[],
  from: number,
  to: number,
): Promise<Joined[]> {
  const lists = await Promise.all(series.map((x) => s.sensors!.series(imei, x, from, to)));
  return joinSamples(series, lists);
}

/**
 * The store keeps an unchanged value only every 5 minutes (modules/sensors): a joined moment
 * shows a series' last value of the same probe when it is at most this old.
 */
export const HOLD_MS = 6 * 60_000;

export function joinSamples(
  series: readonly SensorSeries[],
  lists: readonly SensorSample[][],
  hold = HOLD_MS,
): Joined[] {
  const byKey = new Map<string, Joined>();
  series.forEach((key, k) => {
    for (const sample of lists[k]) {
      const id = `${sample.time}:${sample.index}`;
      let j = byKey.get(id);
      if (!j) {
        j = { time: sample.time, index: sample.index, values: {} };
        byKey.set(id, j);
      }
      j.values[key] = sample.value;
      if (sample.lat !== undefined && j.lat === undefined) {
        j.lat = sample.lat;
        j.lng = sample.lng;
      }
    }
  });
  const joined = [...byKey.values()].sort((a, b) => a.time - b.time || a.index - b.index);
  if (series.length > 1 && hold > 0) holdValues(series, joined, hold);
  return joined;
}

/** Fills each moment's missing values with the probe's last value of that series (≤ hold old). */
function holdValues(series: readonly SensorSeries[], joined: Joined[], hold: number) {
  const last = new Map<string, { time: number; value: number }>();
  for (const j of joined) {
    for (const key of series) {
      const id = `${key}:${j.index}`;
      const v = j.values[key];
      if (v !== undefined) last.set(id, { time: j.time, value: v });
      else {
        const prev = last.get(id);
        if (prev && j.time - prev.time <= hold) j.values[key] = prev.value;
      }
    }
  }
}

/**
 * A line thinned to about CHART_POINTS points: per time bucket its lowest and highest value
 * (in time order), so peaks and dips survive; short lines are kept whole.
 */
export function thin(samples: readonly { time: number; value: number }[]): [number, number][] {
  if (samples.length <= CHART_POINTS) return samples.map((x) => [x.time, x.value]);
  const buckets = Math.floor(CHART_POINTS / 2);
  const t0 = samples[0].time, span = samples[samples.length - 1].time - t0 + 1;
  const out: [number, number][] = [];
  let i = 0;
  for (let b = 0; b < buckets && i < samples.length; b++) {
    const end = t0 + ((b + 1) * span) / buckets;
    let lo = samples[i], hi = samples[i];
    for (; i < samples.length && samples[i].time < end; i++) {
      if (samples[i].value < lo.value) lo = samples[i];
      if (samples[i].value > hi.value) hi = samples[i];
    }
    const pair = lo.time <= hi.time ? [lo, hi] : [hi, lo];
    out.push([pair[0].time, pair[0].value]);
    if (pair[1] !== pair[0]) out.push([pair[1].time, pair[1].value]);
  }
  return out;
}

/**
 * Chart lines of one value key from the joined entries of the first CHART_DEVICES devices
 * (one line per device and probe).
 */
export function chartLines(
  lists: Map<Device, Joined[]>,
  key: SensorSeries,
): ChartLine[] {
  const lines: ChartLine[] = [];
  for (const [d, list] of [...lists].slice(0, CHART_DEVICES)) {
    const probes = new Map<number, { time: number; value: number }[]>();
    for (const j of list) {
      const v = j.values[key];
      if (v === undefined) continue;
      const line = probes.get(j.index) ?? probes.set(j.index, []).get(j.index)!;
      line.push({ time: j.time, value: v });
    }
    for (const [index, samples] of [...probes].sort((a, b) => a[0] - b[0])) {
      lines.push({ imei: d.imei, deviceName: d.deviceName, key, index, points: thin(samples) });
    }
  }
  return lines;
}

/** Rounds a sensor value for the API (two decimals). */
export const r2 = (v: number | undefined | null): number | null =>
  v === undefined || v === null || !Number.isFinite(v) ? null : Math.round(v * 100) / 100;
