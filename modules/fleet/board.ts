import type { Session } from "../../lib/http/env.ts";
import type { MotionReader } from "../motion/types.ts";
import type { FleetAccess, FleetScope } from "./access.ts";
import type { DriverService } from "./drivers.ts";
import {
  type BoardExpiry,
  type Driver,
  type FleetBoard,
  type Vehicle,
  VEHICLE_STATUSES,
} from "./model.ts";
import type { VehicleService } from "./vehicles.ts";

/**
 * What other fleet parts add to the board (F2: reminders, route deviations); a slot left
 * out shows as not available on the page.
 */
export interface FleetBoardSlots {
  reminders?(scope: FleetScope): Promise<{ due: number; overdue: number }>;
  deviationsToday?(scope: FleetScope): Promise<number>;
}

export type { BoardExpiry, FleetBoard };

/** Both record lists of a scope, read once (FleetStore). */
export interface FleetLists {
  lists(accountIds: Iterable<string> | null): Promise<{ drivers: Driver[]; vehicles: Vehicle[] }>;
}

/** Device-day reads in flight at once (2,000 vehicles stay within the board's 500 ms). */
const DAY_READS = 200;

/** The /fleetIndex data board (issue 19): counts and per-vehicle figures the page charts. */
export class BoardService {
  constructor(
    private readonly access: FleetAccess,
    private readonly drivers: DriverService,
    private readonly vehicles: VehicleService,
    private readonly motion: Pick<MotionReader, "days">,
    private readonly records: FleetLists,
    private readonly slots: FleetBoardSlots = {},
  ) {}

  async board(session: Session, now = Date.now()): Promise<FleetBoard> {
    const scope = await this.access.scope(session);
    const loaded = await this.records.lists(scope.accountIds);
    const vehicles = await this.vehicles.rows(scope, loaded);
    const drivers = await this.drivers.rows(scope, loaded);
    const byStatus = Object.fromEntries(VEHICLE_STATUSES.map((s) => [s, 0])) as FleetBoard[
      "byStatus"
    ];
    for (const v of vehicles) byStatus[v.status]++;
    const driverName = new Map(drivers.map((d) => [d.id, d.name]));
    const expiring: BoardExpiry[] = [];
    for (const d of drivers) {
      if (d.licenceState === "expired" || d.licenceState === "expiringSoon") {
        expiring.push({
          kind: "licence",
          id: d.id,
          name: d.name,
          date: d.expiredDate,
          state: d.licenceState,
        });
      }
    }
    for (const v of vehicles) {
      if (v.insuranceState === "expired" || v.insuranceState === "expiringSoon") {
        expiring.push({
          kind: "insurance",
          id: v.id,
          name: v.plate,
          date: v.insuranceExpire,
          state: v.insuranceState,
        });
      }
    }
    expiring.sort((a, b) => a.date.localeCompare(b.date));
    const [today, reminders, deviationsToday] = await Promise.all([
      this.today(vehicles, now),
      this.slots.reminders?.(scope) ?? null,
      this.slots.deviationsToday?.(scope) ?? null,
    ]);
    return {
      vehicles: vehicles.length,
      drivers: drivers.length,
      byStatus,
      onDuty: vehicles.filter((v) => v.currentDriverId).map((v) => ({
        driverId: v.currentDriverId,
        driverName: driverName.get(v.currentDriverId) ?? "",
        vehicleId: v.id,
        plate: v.plate,
      })),
      expiring,
      today,
      reminders,
      deviationsToday,
    };
  }

  private async today(
    vehicles: { id: string; plate: string; imei: string }[],
    now: number,
  ): Promise<FleetBoard["today"]> {
    const dayStart = Math.floor(now / 86_400_000) * 86_400_000;
    const bound = vehicles.filter((v) => v.imei);
    const out: FleetBoard["today"] = [];
    for (let i = 0; i < bound.length; i += DAY_READS) {
      const chunk = bound.slice(i, i + DAY_READS);
      const days = await Promise.all(chunk.map((v) => this.motion.days(v.imei, dayStart, now)));
      chunk.forEach((v, j) => {
        const d = days[j].at(-1);
        out.push({
          vehicleId: v.id,
          plate: v.plate,
          distanceKm: Math.round((d?.distance ?? 0) * 10) / 10,
          drivingSeconds: d?.drivingSeconds ?? 0,
        });
      });
    }
    return out.sort((a, b) => b.distanceKm - a.distanceKm || a.plate.localeCompare(b.plate));
  }
}
