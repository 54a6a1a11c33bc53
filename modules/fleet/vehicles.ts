import type { z } from "zod";
import { BizError } from "../../lib/errors.ts";
import type { Session } from "../../lib/http/env.ts";
import { type FleetAccess, type FleetScope, inScope } from "./access.ts";
import { type Driver, expiryStateOf, type Page, type Vehicle, type VehicleRow } from "./model.ts";
import type { vehicleAddBody, vehicleListBody } from "./schemas.ts";
import type { FleetStore } from "./store.ts";
import { vinProblem } from "./vin.ts";
import { today } from "./drivers.ts";

/** What vehicles read of devices: one the caller may see (refused alike when unknown). */
export interface FleetDevices {
  visibleDevice(session: Session, imei: string): Promise<{ imei: string; userId: string }>;
  /** The device's display name ("" when unknown). */
  nameOf(imei: string): string;
}

type VehicleInput = Omit<z.infer<typeof vehicleAddBody>, "userId" | "force">;
export type { VehicleRow };

/**
 * Vehicles of an enterprise tree (spec business §3 Fleet vehicle): the bound device must be
 * the caller's to see and holds at most one vehicle; a suspicious chassis number is a warning
 * the caller overrides with `force`.
 */
export class VehicleService {
  constructor(
    private readonly store: FleetStore,
    private readonly access: FleetAccess,
    private readonly devices: FleetDevices,
  ) {}

  async add(session: Session, input: z.infer<typeof vehicleAddBody>): Promise<{ id: string }> {
    const { userId, force, ...fields } = input;
    const account = await this.access.targetAccount(session, userId);
    const now = new Date().toISOString();
    const v: Vehicle = {
      ...fields,
      id: crypto.randomUUID(),
      accountId: account.id,
      currentDriverId: "",
      createdAt: now,
      updatedAt: now,
    };
    await this.check(session, v, null, force);
    await this.save(v, null);
    return { id: v.id };
  }

  async update(
    session: Session,
    input: { id: string; force: boolean } & Partial<VehicleInput>,
  ): Promise<null> {
    const { force, ...fields } = input;
    const before = await this.visible(session, input.id);
    const after: Vehicle = { ...before, ...fields, updatedAt: new Date().toISOString() };
    await this.check(session, after, before, force);
    await this.save(after, before);
    return null;
  }

  async remove(session: Session, ids: string[]): Promise<null> {
    const vehicles = await Promise.all(ids.map((id) => this.visible(session, id)));
    for (const v of vehicles) await this.store.deleteVehicle(v);
    return null;
  }

  async list(session: Session, input: z.infer<typeof vehicleListBody>): Promise<Page<VehicleRow>> {
    const rows = await this.rows(await this.access.scope(session));
    const kw = input.keyword?.toLowerCase();
    const hits = rows.filter((v) =>
      (!kw || [v.plate, v.imei, v.brand, v.model, v.chassis, v.driverName]
        .some((f) => f.toLowerCase().includes(kw))) &&
      (!input.status || v.status === input.status) &&
      (!input.insuranceState || v.insuranceState === input.insuranceState)
    );
    const start = (input.pageNum - 1) * input.pageSize;
    return { total: hits.length, list: hits.slice(start, start + input.pageSize) };
  }

  /** Every vehicle of the scope, newest first, with insurance state and driver names. */
  async rows(
    scope: FleetScope,
    /** Records already read (the board reads each list once for both kinds of rows). */
    loaded?: { drivers: Driver[]; vehicles: Vehicle[] },
  ): Promise<VehicleRow[]> {
    const [vehicles, drivers] = loaded ? [loaded.vehicles, loaded.drivers] : await Promise.all([
      this.store.vehicles(scope.accountIds),
      this.store.drivers(scope.accountIds),
    ]);
    const name = new Map(drivers.map((d) => [d.id, d.name]));
    const day = today();
    return [...vehicles]
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
      .map((v) => ({
        ...v,
        insuranceState: expiryStateOf(v.insuranceExpire, day),
        driverName: name.get(v.driverId) ?? "",
        currentDriverName: name.get(v.currentDriverId) ?? "",
        deviceName: v.imei ? this.devices.nameOf(v.imei) : "",
      }));
  }

  /** Assigns a driver to a vehicle (and so to its device); "" unassigns. */
  async assign(session: Session, vehicleId: string, driverId: string): Promise<null> {
    const v = await this.visible(session, vehicleId);
    if (driverId) {
      const scope = await this.access.scope(session);
      const d = await this.store.driver(driverId);
      if (!d || !inScope(scope, d)) throw new BizError("dataNotExists");
    }
    await this.save({ ...v, driverId, updatedAt: new Date().toISOString() }, v);
    return null;
  }

  async visible(session: Session, id: string): Promise<Vehicle> {
    const scope = await this.access.scope(session);
    const v = await this.store.vehicle(id);
    if (!v || !inScope(scope, v)) throw new BizError("dataNotExists");
    return v;
  }

  private async check(session: Session, v: Vehicle, before: Vehicle | null, force: boolean) {
    if (v.insuranceEffective && v.insuranceExpire && v.insuranceExpire < v.insuranceEffective) {
      throw new BizError("insuranceExpireBeforeEffective");
    }
    if (v.imei && v.imei !== before?.imei) await this.devices.visibleDevice(session, v.imei);
    if (v.driverId && v.driverId !== before?.driverId) {
      const scope = await this.access.scope(session);
      const d = await this.store.driver(v.driverId);
      if (!d || !inScope(scope, d)) throw new BizError("dataNotExists");
    }
    const problem = v.chassis !== before?.chassis ? vinProblem(v.chassis) : null;
    if (problem && !force) {
      const reasonKey = `validation.vin${problem[0].toUpperCase()}${problem.slice(1)}`;
      throw new BizError("vinSuspicious", { reasonKey }, { vinWarning: problem });
    }
  }

  private async save(v: Vehicle, before: Vehicle | null) {
    if (await this.store.saveVehicle(v, before)) {
      throw new BizError("vehicleDeviceBound", { imei: v.imei });
    }
  }
}
