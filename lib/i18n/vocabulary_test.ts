import assert from "node:assert/strict";
import { RESOURCES } from "./resources.ts";

/** The spec's device status filter words (business-areas §3: 1 moving … 4 offline). */
const STATES = ["moving", "idling", "stopped", "offline"] as const;

Deno.test("one status vocabulary: the monitor, devices and commands pages name states alike", () => {
  for (const [lang, r] of Object.entries(RESOURCES)) {
    const words = STATES.map((s) => r.monitor.tabsStatus[s]);
    const places: Record<string, Record<string, string>> = {
      "monitor.status": r.monitor.status,
      "devices.status": r.devices.status,
      "commands.deviceStatus": r.commands.deviceStatus,
    };
    for (const [name, labels] of Object.entries(places)) {
      assert.deepEqual(STATES.map((s) => labels[s]), words, `${lang} ${name}`);
    }
    // The device list's status filter (values 1-4) uses the same words.
    const filter = r.devices.statusFilter as Record<string, string>;
    assert.deepEqual(["1", "2", "3", "4"].map((v) => filter[v]), words, `${lang} statusFilter`);
  }
  assert.deepEqual(STATES.map((s) => RESOURCES.en.monitor.tabsStatus[s]), [
    "Moving",
    "Idling",
    "Stopped",
    "Offline",
  ]);
});
