/**
 * Temperature and humidity: every reading per probe in time order, each marked when outside
 * the device's thresholds (its alarm data's min and max temperature); the first page adds per
 * probe the range's min, max and average and the intervals spent out of range, and a chart.
 */
import type { Device } from "../devices/model.ts";
import type { Page, ReportQuery, ReportSources } from "./context.ts";
import { deviceCells, iso, seconds } from "./rows.ts";
import type { OutOfRange, ProbeSummary, SensorChart } from "./sensor_model.ts";
import { CHART_DEVICES } from "./sensor_model.ts";
import {
  answer,
  chartLines,
  type Joined,
  r2,
  readJoined,
  sensorPaged,
  SUPPORTS,
} from "./sensor_support.ts";

type Limits = { min: number | null; max: number | null };

/** "high", "low" or null (inside, or no threshold on that side). */
export function bandOf(t: number | undefined, l: Limits): "high" | "low" | null {
  if (t === undefined) return null;
  if (l.max !== null && t > l.max) return "high";
  if (l.min !== null && t < l.min) return "low";
  return null;
}

export async function temperatureHumidityReport(s: ReportSources, q: ReportQuery): Promise<Page> {
  const limits = new Map<string, Limits>();
  const limitsOf = (imei: string) =>
    limits.get(imei) ?? limits.set(imei, s.temperatureLimits(imei)).get(imei)!;
  const p = await sensorPaged<Joined>(s, q, SUPPORTS.temperature, {
    read: (d) => readJoined(s, d.imei, ["temperature", "humidity"], q.from, q.to),
    time: (j) => j.time,
    row: (j, d) => ({
      ...deviceCells(d),
      time: iso(j.time),
      probe: j.index,
      temperature: r2(j.values.temperature),
      humidity: r2(j.values.humidity),
      outOfRange: bandOf(j.values.temperature, limitsOf(d.imei)) !== null,
    }),
  });
  if (q.skip > 0 || !p.q.devices.length) return answer(p);
  const summary: ProbeSummary[] = [];
  for (const [d, list] of p.lists) summary.push(...probeSummaries(d, list, limitsOf(d.imei)));
  const charted = [...p.lists.keys()].slice(0, CHART_DEVICES);
  const chart: SensorChart = {
    kind: "temperature",
    lines: chartLines(p.lists, "temperature"),
    marks: [],
    bands: charted.map((d) => ({ imei: d.imei, ...limitsOf(d.imei) })),
  };
  return answer(p, { summary, chart });
}

interface Stat {
  min: number;
  max: number;
  sum: number;
  count: number;
}

const add = (st: Stat | null, v: number | undefined): Stat | null => {
  if (v === undefined) return st;
  if (!st) return { min: v, max: v, sum: v, count: 1 };
  st.min = Math.min(st.min, v);
  st.max = Math.max(st.max, v);
  st.sum += v;
  st.count++;
  return st;
};

const shown = (st: Stat | null) =>
  st && { min: r2(st.min)!, max: r2(st.max)!, avg: r2(st.sum / st.count)!, count: st.count };

/** Per probe of one device: min/max/avg and the out-of-range intervals. */
export function probeSummaries(d: Device, list: Joined[], limits: Limits): ProbeSummary[] {
  const probes = new Map<number, Joined[]>();
  for (const j of list) (probes.get(j.index) ?? probes.set(j.index, []).get(j.index)!).push(j);
  return [...probes].sort((a, b) => a[0] - b[0]).map(([probe, readings]) => {
    let temperature: Stat | null = null, humidity: Stat | null = null;
    for (const j of readings) {
      temperature = add(temperature, j.values.temperature);
      humidity = add(humidity, j.values.humidity);
    }
    return {
      ...deviceCells(d),
      probe,
      temperature: shown(temperature),
      humidity: shown(humidity),
      limits,
      outOfRange: outOfRange(readings, limits),
    };
  });
}

/**
 * The intervals a probe spent out of its band: from the first reading outside to the first
 * reading back inside (or to the last reading when it never came back); a change from high to
 * low starts a new interval.
 */
export function outOfRange(readings: Joined[], limits: Limits): OutOfRange[] {
  const out: OutOfRange[] = [];
  let open: { start: number; band: "high" | "low"; extreme: number; last: number } | null = null;
  const close = (end: number) => {
    if (!open) return;
    out.push({
      start: iso(open.start),
      end: iso(end),
      duration: seconds(open.start, end),
      band: open.band,
      extreme: r2(open.extreme)!,
    });
    open = null;
  };
  for (const j of readings) {
    const t = j.values.temperature;
    if (t === undefined) continue;
    const band = bandOf(t, limits);
    if (open && band !== open.band) close(j.time);
    if (band && !open) open = { start: j.time, band, extreme: t, last: j.time };
    if (open) {
      open.extreme = band === "high" ? Math.max(open.extreme, t) : Math.min(open.extreme, t);
      open.last = j.time;
    }
  }
  if (open) close((open as { last: number }).last);
  return out;
}
