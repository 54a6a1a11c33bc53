import assert from "node:assert/strict";
import { dueSlot, latestSlot } from "./schedule.ts";

const iso = (ms: number) => new Date(ms).toISOString();
const at = (s: string) => Date.parse(s);

Deno.test("daily: the day before, at the execution time in the owner's zone", () => {
  // 2026-11-26 07:59 in Shanghai is 2026-11-25T23:59Z: today's 08:00 slot is not due yet.
  const before = latestSlot("day", "08:00", "Asia/Shanghai", at("2026-11-25T23:59:00Z"));
  assert.equal(before.key, "day:2026-11-25");
  const s = latestSlot("day", "08:00", "Asia/Shanghai", at("2026-11-26T00:00:00Z"));
  assert.equal(s.key, "day:2026-11-26");
  assert.equal(iso(s.runAt), "2026-11-26T00:00:00.000Z");
  assert.equal(iso(s.from), "2026-11-24T16:00:00.000Z");
  assert.equal(iso(s.to), "2026-11-25T16:00:00.000Z");
});

Deno.test("weekly on Mondays for Monday-Sunday before; monthly on the 1st for the month before", () => {
  // Thursday 2026-11-26: the latest Monday is 2026-11-23.
  const w = latestSlot("week", "06:30", "UTC", at("2026-11-26T12:00:00Z"));
  assert.equal(w.key, "week:2026-11-23");
  assert.equal(iso(w.runAt), "2026-11-23T06:30:00.000Z");
  assert.equal(iso(w.from), "2026-11-16T00:00:00.000Z");
  assert.equal(iso(w.to), "2026-11-23T00:00:00.000Z");
  // Monday before its time: the week before that.
  assert.equal(
    latestSlot("week", "06:30", "UTC", at("2026-11-23T06:00:00Z")).key,
    "week:2026-11-16",
  );
  const m = latestSlot("month", "00:05", "Europe/Berlin", at("2026-03-01T00:00:00Z"));
  assert.equal(m.key, "month:2026-03-01");
  assert.equal(iso(m.runAt), "2026-02-28T23:05:00.000Z");
  assert.equal(iso(m.from), "2026-01-31T23:00:00.000Z"); // 1 Feb, Berlin (UTC+1)
  assert.equal(iso(m.to), "2026-02-28T23:00:00.000Z");
  // Across a daylight-saving change: April's report covers March 1 (UTC+1) to April 1 (UTC+2).
  const april = latestSlot("month", "09:00", "Europe/Berlin", at("2026-04-01T08:00:00Z"));
  assert.equal(iso(april.from), "2026-02-28T23:00:00.000Z");
  assert.equal(iso(april.to), "2026-03-31T22:00:00.000Z");
  assert.equal(iso(april.runAt), "2026-04-01T07:00:00.000Z");
});

Deno.test("due: not before creation, not after the catch-up window", () => {
  const r = {
    frequency: "day" as const,
    executionTime: "08:00",
    createdAt: at("2026-11-26T07:00:00Z"),
  };
  const sixHours = 6 * 3_600_000;
  assert.equal(dueSlot(r, "UTC", at("2026-11-26T07:59:00Z"), sixHours), null);
  assert.equal(dueSlot(r, "UTC", at("2026-11-26T08:00:00Z"), sixHours)?.key, "day:2026-11-26");
  assert.equal(dueSlot(r, "UTC", at("2026-11-26T13:59:00Z"), sixHours)?.key, "day:2026-11-26");
  assert.equal(dueSlot(r, "UTC", at("2026-11-26T14:01:00Z"), sixHours), null);
  // Created after today's time: tomorrow's slot is the first.
  const late = { ...r, createdAt: at("2026-11-26T09:00:00Z") };
  assert.equal(dueSlot(late, "UTC", at("2026-11-26T09:01:00Z"), sixHours), null);
  assert.equal(dueSlot(late, "UTC", at("2026-11-27T08:00:00Z"), sixHours)?.key, "day:2026-11-27");
});
