import assert from "node:assert/strict";
import { quickOf, quickRange, rangeProblem } from "./range.ts";

// Thursday 2026-11-26 10:30 in Shanghai (02:30 UTC).
const NOW = Date.UTC(2026, 10, 26, 2, 30);
const SH = "Asia/Shanghai";
const shanghai = (d: string) => new Date(`${d}+08:00`).getTime();

Deno.test("quick ranges start at local midnight in the user's zone and end now", () => {
  assert.deepEqual(quickRange("today", NOW, SH), { from: shanghai("2026-11-26T00:00"), to: NOW });
  assert.deepEqual(quickRange("yesterday", NOW, SH), {
    from: shanghai("2026-11-25T00:00"),
    to: shanghai("2026-11-25T23:59:59"),
  });
  // The week starts on Monday the 23rd.
  assert.equal(quickRange("thisWeek", NOW, SH).from, shanghai("2026-11-23T00:00"));
  assert.equal(quickRange("last7Days", NOW, SH).from, shanghai("2026-11-20T00:00"));
  assert.equal(quickRange("thisMonth", NOW, SH).from, shanghai("2026-11-01T00:00"));
  // In UTC the same moment is still the 26th, from 00:00 UTC.
  assert.equal(quickRange("today", NOW, "UTC").from, Date.UTC(2026, 10, 26));
  // A Sunday belongs to the week that began six days before.
  const sunday = Date.UTC(2026, 10, 29, 12);
  assert.equal(quickRange("thisWeek", sunday, "UTC").from, Date.UTC(2026, 10, 23));
});

Deno.test("a range is recognised as its quick choice", () => {
  assert.equal(quickOf(quickRange("last7Days", NOW, SH), NOW, SH), "last7Days");
  assert.equal(quickOf({ from: NOW - 3_600_000, to: NOW }, NOW, SH), null);
});

Deno.test("range checks: order, future, look-back and each report's longest range", () => {
  const day = 86_400_000;
  assert.equal(rangeProblem("trips", { from: NOW - day, to: NOW }, NOW), null);
  assert.deepEqual(rangeProblem("trips", { from: NOW, to: NOW - 1 }, NOW), {
    key: "errors.startAfterEnd",
  });
  assert.deepEqual(rangeProblem("trips", { from: NOW + 60_000, to: NOW + 2 * 60_000 }, NOW), {
    key: "errors.reportStartInFuture",
  });
  assert.deepEqual(rangeProblem("trips", { from: NOW - 200 * day, to: NOW - 190 * day }, NOW), {
    key: "errors.reportBeyondLookback",
    days: 183,
  });
  // Trips allow 3 months; parking one month; track details a week.
  assert.equal(rangeProblem("trips", { from: NOW - 90 * day, to: NOW }, NOW), null);
  assert.deepEqual(rangeProblem("parking", { from: NOW - 40 * day, to: NOW }, NOW), {
    key: "errors.playbackRangeTooLong",
    days: 31,
  });
  assert.deepEqual(rangeProblem("trackDetails", { from: NOW - 8 * day, to: NOW }, NOW), {
    key: "errors.playbackRangeTooLong",
    days: 7,
  });
  assert.deepEqual(rangeProblem("trips", { from: NaN, to: NOW }, NOW), {
    key: "reports.form.noRange",
  });
});
