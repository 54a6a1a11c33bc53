import assert from "node:assert/strict";
import type { StoredPosition } from "../devices/model.ts";
import { streaksOf } from "./overspeed.ts";

const T0 = Date.parse("2026-11-20T08:00:00Z");

/** One fix every 5 s at the given speeds, moving north. */
function track(speeds: number[], opts: { invalidAt?: number; gapAfter?: number } = {}) {
  let t = T0;
  return speeds.map((speed, i): StoredPosition => {
    if (opts.gapAfter !== undefined && i === opts.gapAfter + 1) t += 2 * 3_600_000;
    const p = {
      time: t,
      lat: 22.5 + i * 1e-3,
      lng: 114,
      speed,
      course: 0,
      altitude: 0,
      satellites: 9,
      posType: 1,
      valid: i !== opts.invalidAt,
      acc: true,
      mileage: null,
      battery: null,
      signal: null,
      attributes: {},
    } satisfies StoredPosition;
    t += 5_000;
    return p;
  });
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

Deno.test("streaksOf: invalid fixes are skipped, a data gap cuts the streak", () => {
  const skipped = streaksOf(track([120, 120, 10, 120, 120], { invalidAt: 2 }), 100);
  assert.equal(skipped.length, 1);
  assert.equal(skipped[0].end - skipped[0].start, 20_000);
  const cut = streaksOf(track([120, 120, 120, 120, 120, 120], { gapAfter: 2 }), 100);
  assert.equal(cut.length, 2);
  assert.deepEqual(cut.map((x) => x.end - x.start), [10_000, 10_000]);
});
