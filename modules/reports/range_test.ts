import assert from "node:assert/strict";
import { BizError } from "../../lib/errors.ts";
import { REPORT_LOOKBACK_DAYS } from "./model.ts";
import { checkRange } from "./range.ts";

const NOW = Date.parse("2026-11-26T12:00:00Z");
const DAY = 86_400_000;
const at = (ms: number) => new Date(ms).toISOString();

function refusal(f: () => unknown): { key: string; params: Record<string, unknown> } {
  try {
    f();
  } catch (e) {
    assert.ok(e instanceof BizError);
    return { key: e.key, params: e.params };
  }
  assert.fail("not refused");
}

Deno.test("checkRange: order, future, look-back and the report's own limit", () => {
  assert.deepEqual(checkRange(at(NOW - DAY), at(NOW), 7, NOW), { from: NOW - DAY, to: NOW });
  // An end after now (a page's "today") is read as now; the length counts as asked.
  assert.deepEqual(checkRange(at(NOW - DAY), at(NOW + DAY), 7, NOW), { from: NOW - DAY, to: NOW });
  assert.equal(refusal(() => checkRange(at(NOW), at(NOW - 1), 7, NOW)).key, "startAfterEnd");
  assert.equal(
    refusal(() => checkRange(at(NOW + 2 * 60_000), at(NOW + DAY), 7, NOW)).key,
    "reportStartInFuture",
  );
  assert.deepEqual(
    refusal(() => checkRange(at(NOW - (REPORT_LOOKBACK_DAYS + 1) * DAY), at(NOW), 400, NOW)),
    { key: "reportBeyondLookback", params: { days: REPORT_LOOKBACK_DAYS } },
  );
  assert.deepEqual(
    refusal(() => checkRange(at(NOW - 8 * DAY), at(NOW), 7, NOW)),
    { key: "playbackRangeTooLong", params: { days: 7 } },
  );
  // Exactly the limit is allowed.
  assert.equal(checkRange(at(NOW - 7 * DAY), at(NOW), 7, NOW).from, NOW - 7 * DAY);
});
