import assert from "node:assert/strict";
import { testApp } from "../tests/helpers/harness.ts";

/**
 * The composed process: the position pipeline's handlers hear the gateway's events in the
 * order app/position_pipeline.ts lists them, the alert engine and delivery durable, the live
 * stream not; the reactions to users' requests are durable.
 */
Deno.test("composition: the position pipeline and reactions as subscribed on the bus", async () => {
  const app = await testApp();
  try {
    const subs = app.services.bus.subscriptions();
    const of = (type: string) => subs.filter((s) => s.type === type).map((s) => s.name);
    assert.deepEqual(of("position"), ["alert engine", "report counts", "live stream"]);
    assert.deepEqual(of("status"), ["alert engine", "motion analysis", "live stream"]);
    assert.deepEqual(of("positionsCommitted"), [
      "motion analysis",
      "sensor readings",
      "event media",
      "open api push",
    ]);
    assert.deepEqual(of("statusReported"), ["sensor readings"]);
    assert.ok(of("driverIdentified").includes("sensor readings"));
    assert.deepEqual(of("fenceCrossed"), ["motion analysis"]);
    assert.deepEqual(of("connection"), [
      "alert engine",
      "motion analysis",
      "sensor readings",
      "open api push",
    ]);
    assert.deepEqual(of("alert"), [
      "auto broadcast",
      "alert delivery",
      "open api push",
      "alert address",
      "live stream",
    ]);
    const durable = new Map(subs.map((s) => [s.name, s.durable]));
    assert.equal(durable.get("alert engine"), true);
    assert.equal(durable.get("alert delivery"), true);
    assert.equal(durable.get("live stream"), false);
    assert.equal(durable.get("motion analysis"), true);
    assert.ok(
      subs.filter((s) => !["position", "status", "alert"].includes(s.type)).every((s) => s.durable),
    );
    assert.deepEqual(of("commandSettled"), [
      "work modes: task states",
      "open api push: command results",
    ]);
  } finally {
    await app.close();
  }
});
