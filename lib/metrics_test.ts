import assert from "node:assert/strict";
import { CONTENT_TYPE, Registry } from "./metrics.ts";
import { parseMetrics } from "../tests/helpers/prometheus.ts";

Deno.test("metrics: the text exposition format 0.0.4", () => {
  const r = new Registry();
  const frames = r.counter("tp_frames_total", "Frames received", ["protocol"]);
  const gt06 = frames.labels("gt06");
  gt06.inc();
  gt06.inc(2);
  frames.labels('we"ird\\\nname').inc();
  r.gauge("tp_up", "Line one\nline two \\ backslash").labels().set(1);
  const h = r.histogram("tp_latency_seconds", "Latency", [0.01, 0.1, 1]).labels();
  for (const v of [0.005, 0.01, 0.05, 2]) h.observe(v);
  r.gaugeFn("tp_queue", "Queue depth", ["queue"], (emit) => {
    emit(4, "pending");
    emit(0, "ring");
  });

  const text = r.render();
  assert.equal(
    text,
    [
      "# HELP tp_frames_total Frames received",
      "# TYPE tp_frames_total counter",
      'tp_frames_total{protocol="gt06"} 3',
      'tp_frames_total{protocol="we\\"ird\\\\\\nname"} 1',
      "# HELP tp_up Line one\\nline two \\\\ backslash",
      "# TYPE tp_up gauge",
      "tp_up 1",
      "# HELP tp_latency_seconds Latency",
      "# TYPE tp_latency_seconds histogram",
      'tp_latency_seconds_bucket{le="0.01"} 2',
      'tp_latency_seconds_bucket{le="0.1"} 3',
      'tp_latency_seconds_bucket{le="1"} 3',
      'tp_latency_seconds_bucket{le="+Inf"} 4',
      "tp_latency_seconds_sum 2.065",
      "tp_latency_seconds_count 4",
      "# HELP tp_queue Queue depth",
      "# TYPE tp_queue gauge",
      'tp_queue{queue="pending"} 4',
      'tp_queue{queue="ring"} 0',
      "",
    ].join("\n"),
  );
  assert.match(CONTENT_TYPE, /^text\/plain; version=0\.0\.4/);

  // The parser the integration test scrapes with reads it back, escapes included.
  const parsed = parseMetrics(text);
  assert.equal(parsed.value("tp_frames_total", { protocol: "gt06" }), 3);
  assert.equal(parsed.value("tp_frames_total", { protocol: 'we"ird\\\nname' }), 1);
  assert.equal(parsed.value("tp_latency_seconds_bucket", { le: "+Inf" }), 4);
  assert.equal(parsed.types.get("tp_latency_seconds"), "histogram");
});

Deno.test("metrics: a series is resolved once and counted without lookups", () => {
  const r = new Registry();
  const f = r.counter("tp_x_total", "x", ["kind"]);
  assert.equal(f.labels("a"), f.labels("a"), "the same object for the same labels");
  assert.throws(() => f.labels(), /expected labels kind/);
  assert.throws(() => r.counter("tp_x_total", "again"), /registered twice/);
  assert.throws(() => r.counter("bad-name", "x"), /bad metric name/);
  assert.throws(() => r.histogram("tp_h", "h", [1, 1]), /buckets must increase/);
});
