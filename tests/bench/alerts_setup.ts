/**
 * Alert configuration for `bench:ingest --alerts full`: 20 fences on the bench account over
 * the area the bench devices report from, every alert type pushed, and every threshold set
 * on every device — the "every alert type switched on" load for the alert engine.
 */
import type { PlatformApi } from "../../modules/simulator/api.ts";

const FENCES = 20;

export async function configureAlerts(api: PlatformApi, imeis: string[]): Promise<void> {
  // Circles of 1-2 km over the bench grid (lat 22.5-22.6, lng 114.0-114.1).
  for (let i = 0; i < FENCES; i++) {
    await api.call("/v3/new/geofence/save", {
      kind: "fence",
      name: `Bench ${i + 1}`,
      shape: {
        kind: "circle",
        center: { lat: 22.5 + (i % 5) * 0.02, lng: 114.0 + Math.floor(i / 5) * 0.025 },
        radius: 1000 + (i % 3) * 500,
      },
      enterAlert: true,
      exitAlert: true,
      notInAlert: true,
      notOutAlert: true,
      stayDays: 1,
    });
  }
  const types = await api.call<{ all: string[] }>("/v3/new/alarm/types");
  const settings = await api.call<Record<string, unknown>>("/v3/new/alarm/settings/get", {});
  await api.call("/v3/new/alarm/settings/save", {
    ...settings,
    userId: undefined,
    pushTypes: types.all,
    silenceMinutes: 0,
  });
  const thresholds = {
    overSpeed: 30,
    overSecond: 10,
    minTemperature: -10,
    maxTemperature: 60,
    offlineMinutes: 10,
    stayMinutes: 1,
    mileageThreshold: 1000,
    maintenanceThreshold: 100,
    currentMileage: 0,
    accOnHours: 50,
    currentAccOnHours: 0,
    nightRanges: [
      { start: "00:00", end: "05:00" },
      { start: "12:00", end: "13:00" },
      { start: "20:00", end: "23:59" },
    ],
  };
  let next = 0;
  const worker = async () => {
    while (next < imeis.length) {
      const imei = imeis[next++];
      await api.call("/v3/new/alarm/device/save", { imei, ...thresholds });
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
}
