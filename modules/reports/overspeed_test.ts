import assert from "node:assert/strict";
import type { FixColumns } from "../positions/types.ts";
import { streaksOf } from "./overspeed.ts";

const T0 = Date.parse("2026-11-20T08:00:00Z");

/** Valid fixes every 5 s at the given speeds, moving north (`gapAfter`: two hours' silence). */
function track(speeds: number[], opts: { gapAfter?: number } = {}): FixColumns {
  const n = speeds.length;
  const f: FixColumns = {
    length: n,
    time: new Float64Array(n),
    speed: Float32Array.from(speeds),
    lat: new Float64Array(n),
    lng: new Float64Array(n).fill(114),
  };
  let t = T0;
  for (let i = 0; i < n; i++) {
    if (opts.gapAfter !== undefined && i === opts.gapAfter + 1) t += 2 * 3_600_000;
    f.time[i] = t;
    f.lat[i] = 22.5 + i * 1e-3;
    t += 5_000;
  }
  return f;
}

Deno.test("streaksOf: runs above the limit of at least 10 s, placed where they began", () => {
  const s = streaksOf(track([50, 90, 95, 100, 80, 91, 92, 60, 99, 50]), 85);
  // 90-95-100 lasts 10 s; 91-92 only 5 s, too short.
  assert.deepEqual(s, [
    { start: T0 + 5_000, end: T0 + 15_000, maxSpeed: 100, avgSpeed: 95, lat: 22.501, lng: 114 },
  ]);
  // At exactly the limit a fix is not over it.
  assert.deepEqual(streaksOf(track([100, 100, 100, 100]), 100), []);
});

Deno.test("streaksOf: a data gap cuts the streak; only the given index range is scanned", () => {
  const cut = streaksOf(track([120, 120, 120, 120, 120, 120], { gapAfter: 2 }), 100);
  assert.deepEqual(cut.map((x) => x.end - x.start), [10_000, 10_000]);
  const part = streaksOf(track([120, 120, 120, 120, 120, 120]), 100, 1, 4);
  assert.deepEqual(part.map((x) => [x.start - T0, x.end - T0]), [[5_000, 15_000]]);
});
