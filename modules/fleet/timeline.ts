/**
 * Who drove a device when. A swipe in starts a driver's shift on the device and a swipe out (or
 * another driver's swipe in) ends it; before the device's first swipe, the driver assigned to
 * its vehicle is taken as the driver. Read at request time from the swipe records, so a trip or
 * an alert shows the driver of its moment even when the swipe arrived late.
 */
import type { DriverAt, DriverTimeline } from "./model.ts";
import type { FleetStore } from "./store.ts";

export class DriverTimelineService implements DriverTimeline {
  constructor(private readonly store: FleetStore) {}

  async driversAt(imei: string, times: readonly number[]): Promise<(DriverAt | null)[]> {
    if (!times.length) return [];
    const vehicle = await this.store.vehicleByImei(imei);
    if (!vehicle) return times.map(() => null);
    const from = Math.min(...times), to = Math.max(...times);
    const marks = await this.store.deviceSwipes(imei, from, to);
    const assigned = vehicle.driverId ? await this.store.driver(vehicle.driverId) : null;
    const before = assigned ? { id: assigned.id, name: assigned.name } : null;
    // With no swipe at or before a time, the device may still be in the shift of a swipe that
    // came before the first mark listed: deviceSwipes leads with the last one before `from`.
    return times.map((t) => {
      let at: DriverAt | null = before;
      for (const m of marks) {
        if (m.time > t) break;
        at = m.type === "in" && m.driverId ? { id: m.driverId, name: m.driverName } : null;
      }
      return at;
    });
  }
}
