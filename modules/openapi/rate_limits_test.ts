import assert from "node:assert/strict";
import { OpenRateLimits } from "./rate_limits.ts";

const CONFIG = { OPENAPI_KEY_RATE: 10, OPENAPI_KEY_BURST: 20, OPENAPI_IP_RATE: 30 };

function count(take: () => boolean, tries: number): number {
  let n = 0;
  for (let i = 0; i < tries; i++) if (take()) n++;
  return n;
}

Deno.test("open rate limits, one instance: the whole burst per key, the whole window per address", () => {
  let now = 1_000_000;
  const limits = new OpenRateLimits(CONFIG, { now: () => now });
  assert.equal(count(() => limits.key("k1"), 50), 20);
  assert.equal(count(() => limits.key("k2"), 50), 20, "keys have their own buckets");
  now += 500; // half a second refills 5 tokens
  assert.equal(count(() => limits.key("k1"), 50), 5);
  assert.equal(count(() => limits.address("10.0.0.1"), 50), 30);
  now += 1000;
  assert.equal(count(() => limits.address("10.0.0.1"), 50), 30, "a new window");
});

Deno.test("open rate limits, cluster: each instance enforces the limit / live instances", () => {
  let now = 2_000_000, instances = 4;
  const limits = new OpenRateLimits(CONFIG, { now: () => now, instances: () => instances });
  assert.equal(count(() => limits.key("k"), 50), 5, "burst 20 / 4");
  now += 1000; // 10/s / 4 = 2.5 tokens a second
  assert.equal(count(() => limits.key("k"), 50), 2);
  assert.equal(count(() => limits.address("10.0.0.2"), 50), 8, "ceil(30 / 4)");
  // Instances come and go: the share follows at once.
  instances = 1;
  now += 10_000;
  assert.equal(count(() => limits.key("k"), 50), 20);
  assert.equal(count(() => limits.address("10.0.0.2"), 50), 30);
  // Never less than one call per window, however many instances.
  instances = 100;
  now += 10_000;
  assert.equal(count(() => limits.address("10.0.0.3"), 5), 1);
});
