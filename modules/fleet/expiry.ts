import type { FleetExpiry, FleetExpirySource } from "../notifications/notices.ts";
import type { FleetStore } from "./store.ts";

/**
 * The fleet's dates for the daily reminder check (modules/notifications/notices.ts): drivers'
 * licences and vehicles' insurance. A device bound to a vehicle takes these from the fleet, so
 * its device-level licence and insurance dates raise nothing (no message twice).
 */
export class FleetExpiries implements FleetExpirySource {
  constructor(private readonly store: FleetStore) {}

  async expiries(): Promise<FleetExpiry[]> {
    const [drivers, vehicles] = await Promise.all([
      this.store.drivers(null),
      this.store.vehicles(null),
    ]);
    const byId = new Map(vehicles.map((v) => [v.id, v]));
    const byDriver = new Map(vehicles.filter((v) => v.driverId).map((v) => [v.driverId, v]));
    const out: FleetExpiry[] = [];
    for (const d of drivers) {
      if (!d.expiredDate) continue;
      const vehicle = byId.get(d.vehicleId) ?? byDriver.get(d.id);
      out.push({
        kind: "licence",
        id: d.id,
        accountId: d.accountId,
        name: d.name,
        date: d.expiredDate,
        imei: vehicle?.imei ?? "",
      });
    }
    for (const v of vehicles) {
      if (!v.insuranceExpire) continue;
      out.push({
        kind: "insurance",
        id: v.id,
        accountId: v.accountId,
        name: v.plate,
        date: v.insuranceExpire,
        imei: v.imei,
      });
    }
    return out;
  }

  async boundImeis(): Promise<Set<string>> {
    return new Set((await this.store.vehicles(null)).map((v) => v.imei).filter(Boolean));
  }
}
