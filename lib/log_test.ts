import assert from "node:assert/strict";
import { Logger, type LogLevel, RateLimitedLog } from "./log.ts";

function collecting(level: LogLevel) {
  const lines: { line: string; level: LogLevel }[] = [];
  const logger = new Logger({ level, write: (line, l) => lines.push({ line, level: l }) });
  return { logger, lines };
}

const LINE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z (DEBUG|INFO|WARN|ERROR) (\S+) (.*)$/;

Deno.test("log: one line per event with time, level and area; LOG_LEVEL filters", () => {
  const { logger, lines } = collecting("info");
  const gw = logger.area("gateway");
  gw.debug("not shown at info");
  gw.info("device 359710049000011 logged in");
  gw.warn("two\nlines", new Error("boom"));
  logger.area("http").error("failed", { code: 7 });
  assert.equal(lines.length, 3);
  const [a, b, c] = lines.map((l) => LINE.exec(l.line));
  assert.deepEqual([a?.[1], a?.[2], a?.[3]], [
    "INFO",
    "gateway",
    "device 359710049000011 logged in",
  ]);
  assert.equal(b?.[1], "WARN");
  assert.match(b![3], /^two \| lines: Error: boom \| at /, "an error's stack stays on the line");
  assert.deepEqual([c?.[1], c?.[2], c?.[3]], ["ERROR", "http", 'failed: {"code":7}']);
  assert.deepEqual(lines.map((l) => l.level), ["info", "warn", "error"]);

  logger.setLevel("warn");
  gw.info("dropped");
  assert.equal(gw.enabled("info"), false);
  assert.equal(lines.length, 3);
  logger.setLevel("debug");
  gw.debug("now shown");
  assert.match(lines[3].line, / DEBUG gateway now shown$/);
  assert.equal(logger.level, "debug");
  assert.equal(logger.area("gateway"), gw, "one logger object per area");
});

Deno.test("log: rate-limited lines, one per key per window, with the suppressed count", () => {
  const { logger, lines } = collecting("info");
  let now = 1_000_000;
  const limited = new RateLimitedLog(logger.area("gateway"), "warn", 60_000, 4, () => now);
  assert.equal(limited.log("gt06|A|checksum", "bad checksum from A"), true);
  for (let i = 0; i < 5; i++) assert.equal(limited.log("gt06|A|checksum", "bad checksum"), false);
  assert.equal(limited.log("gt06|B|checksum", "bad checksum from B"), true, "another key");
  now += 60_000;
  limited.log("gt06|A|checksum", "bad checksum from A");
  assert.deepEqual(lines.map((l) => l.line.replace(/^\S+ /, "")), [
    "WARN gateway bad checksum from A",
    "WARN gateway bad checksum from B",
    "WARN gateway bad checksum from A (5 more like this suppressed since the last)",
  ]);
  // A flood of distinct keys cannot grow the table past its bound.
  for (let i = 0; i < 100; i++) limited.log(`k${i}`, "x");
  assert.equal(lines.length, 103);

  logger.setLevel("error");
  assert.equal(limited.log("gt06|C|checksum", "below the level"), false);
});
