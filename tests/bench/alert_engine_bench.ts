/**
 * `deno run -A tests/bench/alert_engine_bench.ts` — CPU cost of the alert engine per position,
 * in process without the gateway: 10,000 devices of one account, 20 fences on that account,
 * every threshold set, positions moving through the fence area. Prints positions/s the engine
 * evaluates on one core and µs per position; alert writes go to a real KV file.
 */
import { AlertEngine } from "../../modules/alerts/engine.ts";
import { AlertSettingsStore } from "../../modules/alerts/settings.ts";
import { AlertSettingsRecords } from "../../modules/alerts/settings_store.ts";
import { AlertStore } from "../../modules/alerts/store.ts";
import type { DeviceDirectory } from "../../modules/devices/directory.ts";
import type { StoredPosition } from "../../modules/devices/model.ts";
import { EventBus } from "../../lib/events/bus.ts";
import type { AlertRaised } from "../../modules/alerts/events.ts";
import { bbox } from "../../modules/geofences/geometry.ts";
import type { Zone } from "../../modules/geofences/model.ts";
import type { GeofenceService, IndexedZone } from "../../modules/geofences/service.ts";
import type { AccountStore } from "../../modules/accounts/store.ts";
import { MessageStore } from "../../modules/notifications/messages.ts";
import { MessageRecords } from "../../modules/notifications/store.ts";
import { PlatformNotices } from "../../modules/notifications/notices.ts";
import { ReportCounter } from "../../modules/notifications/report_counts.ts";
import { ReportCountStore } from "../../modules/notifications/store_report_counts.ts";

const DEVICES = 10_000, FENCES = 20, ROUNDS = 20;
const dir = await Deno.makeTempDir({ prefix: "tp-engine-bench-" });
const kv = await Deno.openKv(`${dir}/bench.kv`);
const settings = new AlertSettingsStore(new AlertSettingsRecords(kv));
const imeis = Array.from({ length: DEVICES }, (_, i) => String(861000000000000 + i));
for (const imei of imeis) {
  await settings.saveDevice({
    imei,
    overSpeed: 80,
    overSecond: 30,
    minTemperature: -10,
    maxTemperature: 60,
    offlineMinutes: 10,
    stayMinutes: 5,
    mileageThreshold: 100_000,
    maintenanceThreshold: 50_000,
    currentMileage: 0,
    accOnHours: 5000,
    currentAccOnHours: 0,
    licenceExpiry: null,
    insuranceExpiry: null,
    simCardExpiry: null,
    nightRanges: [{ start: "00:00", end: "05:00" }, { start: "22:00", end: "23:59" }],
  });
}
const zones: IndexedZone[] = Array.from({ length: FENCES }, (_, i) => {
  const zone = {
    id: `f${i}`,
    kind: "fence",
    userId: "u1",
    name: `Fence ${i}`,
    shape: i % 2
      ? {
        kind: "circle",
        center: { lat: 22.5 + (i % 5) * 0.02, lng: 114.0 + Math.floor(i / 5) * 0.025 },
        radius: 1500,
      }
      : {
        kind: "polygon",
        points: [[0, 0], [0, 0.01], [0.01, 0.01], [0.01, 0], [0, 0]].map(([a, b]) => ({
          lat: 22.5 + (i % 5) * 0.02 + a,
          lng: 114.0 + Math.floor(i / 5) * 0.025 + b,
        })),
      },
    enterAlert: true,
    exitAlert: true,
    notInAlert: true,
    notOutAlert: true,
    stayDays: 1,
    imeis: [],
    command: "",
  } as unknown as Zone;
  return { zone, box: bbox(zone.shape) };
});
const geofences = { zonesOf: () => zones } as unknown as GeofenceService;
const directory = {
  get: () => ({ timezoneOffsetMinutes: 480, userId: "u1" }),
  state: () => undefined,
} as unknown as DeviceDirectory;
const bus = new EventBus<AlertRaised>();
const engine = new AlertEngine({ bus, alerts: new AlertStore(kv), settings, geofences, directory });
let alerts = 0;
bus.on("alert", () => void alerts++, { name: "count", durable: false });

const base = Date.UTC(2026, 0, 1, 8, 0, 0);
const position = (i: number, round: number): StoredPosition => ({
  time: base + round * 10_000,
  lat: 22.5 + (i % 100) / 1000 + round * 0.0004,
  lng: 114.0 + Math.floor(i / 100) / 1000,
  speed: 40 + (i % 60),
  course: 0,
  altitude: 0,
  satellites: 9,
  posType: 1,
  valid: true,
  acc: true,
  mileage: 1000 + round,
  battery: 80,
  signal: 4,
  attributes: { temp1: 20 + (i % 50) },
});
// Warm-up round: the engine learns every device's place.
for (let i = 0; i < DEVICES; i++) {
  engine.onEvent({ type: "position", imei: imeis[i], userId: "u1", position: position(i, 0) });
}
await engine.idle();
const t0 = performance.now();
for (let r = 1; r <= ROUNDS; r++) {
  for (let i = 0; i < DEVICES; i++) {
    engine.onEvent({ type: "position", imei: imeis[i], userId: "u1", position: position(i, r) });
  }
}
const evalMs = performance.now() - t0;
await engine.idle();
const totalMs = performance.now() - t0;
const n = DEVICES * ROUNDS;
console.log(
  `alert engine — ${
    new Date().toISOString()
  } — deno ${Deno.version.deno}, ${navigator.hardwareConcurrency} cores\n` +
    `${
      DEVICES.toLocaleString("en")
    } devices × ${ROUNDS} positions, ${FENCES} fences on the account, every threshold set\n` +
    `evaluation: ${Math.round(n / (evalMs / 1000)).toLocaleString("en")} positions/s on one core ` +
    `(${((evalMs * 1000) / n).toFixed(2)} µs per position)\n` +
    `with storing ${alerts.toLocaleString("en")} alerts: ${
      Math.round(n / (totalMs / 1000)).toLocaleString("en")
    } positions/s`,
);

// The message center counts every stored position too (the "fewer than 50 reports" check).
const notices = new PlatformNotices({
  messages: new MessageStore(new MessageRecords(kv)),
  accounts: {} as AccountStore,
  directory: {} as DeviceDirectory,
  deviceSettings: () => [],
  reportCounts: new ReportCounter(new ReportCountStore(kv)),
});
const t1 = performance.now();
for (let r = 0; r < ROUNDS; r++) for (let i = 0; i < DEVICES; i++) notices.countPosition(imeis[i]);
const countMs = performance.now() - t1;
const t2 = performance.now();
await notices.flushCounts();
console.log(
  `message center position count: ${((countMs * 1e6) / n).toFixed(0)} ns per position; ` +
    `stored for ${DEVICES.toLocaleString("en")} devices in ${
      (performance.now() - t2).toFixed(0)
    } ms`,
);
kv.close();
await Deno.remove(dir, { recursive: true });
