import assert from "node:assert/strict";
import { within } from "./within.ts";

Deno.test("within: true when the work resolves in time, false when it fails or is late", async () => {
  assert.equal(await within(Promise.resolve(1), 1000), true);
  assert.equal(await within(Promise.reject(new Error("no")), 1000), false);
  const started = Date.now();
  assert.equal(await within(new Promise(() => {}), 50), false);
  assert.ok(Date.now() - started >= 45);
  // The test's sanitizer fails it if a timer of the 1000 ms waits were left running.
});
