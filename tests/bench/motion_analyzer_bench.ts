/**
 * The motion analyzer's cost per position on the ingest path: 1,000,000 push() calls, once for
 * one device (a day's drive/park/idle cycle repeated, ACC and odometer reported, GPS noise while
 * stopped) and once spread over 1,000 devices in turn (as the gateway's commits interleave them).
 * Prints points/s.
 *
 *   npx -y deno@2 run -A tests/bench/motion_analyzer_bench.ts
 */
import type { StoredPosition } from "../../modules/devices/model.ts";
import { MotionAnalyzer, newOutput } from "../../modules/motion/analyzer.ts";
import { Track } from "../../modules/motion/test_tracks.ts";
import { DEFAULT_MOTION_RULES } from "../../modules/motion/types.ts";

const TOTAL = 1_000_000;
const DAY_MS = 86_400_000;

/** One device-day at 30 s while active: parked (noisy), idling, driving, with ACC and odometer. */
function dayTrack(seed: number): StoredPosition[] {
  const tr = new Track(Date.UTC(2026, 2, 2), 22.5 + seed * 0.001, 114);
  tr.odometer = 10_000;
  tr.acc = false;
  tr.here().stay(6 * 3600, 300, 30, seed);
  for (let i = 0; i < 6; i++) {
    tr.acc = true;
    tr.stay(120, 30, 10, seed + i).drive(1800, 40 + i * 12).stay(240, 30, 10, seed + i);
    tr.acc = false;
    tr.stay(1800, 120, 30, seed + i);
  }
  tr.stay(DAY_MS / 1000 - (tr.time - tr.points[0].time) / 1000 - 300, 600, 30, seed);
  return tr.points;
}

/** Pushes TOTAL points over `devices` analyzers, each replaying its day shifted by a day per lap. */
function bench(devices: number): { seconds: number; segments: number } {
  const days = Array.from({ length: Math.min(devices, 50) }, (_, i) => dayTrack(i + 1));
  const analyzers = Array.from(
    { length: devices },
    (_, i) => new MotionAnalyzer(String(860000000000000 + i), DEFAULT_MOTION_RULES, 100),
  );
  const out = newOutput();
  const perDay = days[0].length;
  let segments = 0;
  const t0 = performance.now();
  for (let n = 0; n < TOTAL;) {
    const step = Math.floor(n / devices);
    const lap = Math.floor(step / perDay);
    const i = step % perDay;
    for (let d = 0; d < devices && n < TOTAL; d++, n++) {
      const p = days[d % days.length][i];
      const time = p.time;
      p.time = time + lap * DAY_MS;
      analyzers[d].push(p, out);
      p.time = time;
    }
    if (out.segments.length > 1000) {
      segments += out.segments.length;
      out.segments.length = 0;
      out.days.length = 0;
    }
  }
  return { seconds: (performance.now() - t0) / 1000, segments: segments + out.segments.length };
}

bench(10); // warm-up: compile the hot path
for (const devices of [1, 1000]) {
  // Best of three: the machine is shared, the best run is the analyzer's own cost.
  const runs = [bench(devices), bench(devices), bench(devices)].sort((a, b) =>
    a.seconds - b.seconds
  );
  const { seconds, segments } = runs[0];
  const rate = (s: number) => Math.round(TOTAL / s).toLocaleString("en");
  console.log(
    `motion analyzer, ${devices} device(s): ${TOTAL.toLocaleString("en")} points in ${
      (seconds * 1000).toFixed(0)
    } ms → ${rate(seconds)} points/s best, ${
      rate(runs[1].seconds)
    } median (${segments} segments closed)`,
  );
}
