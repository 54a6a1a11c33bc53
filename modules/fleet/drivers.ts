import type { z } from "zod";
import { BizError } from "../../lib/errors.ts";
import type { Session } from "../../lib/http/env.ts";
import type { AccountLookup } from "../accounts/model.ts";
import { enterpriseRoot, type FleetAccess, type FleetScope, inScope } from "./access.ts";
import { type Driver, type DriverRow, expiryStateOf, type Page, type Vehicle } from "./model.ts";
import type { driverAddBody, driverListBody } from "./schemas.ts";
import type { FleetStore } from "./store.ts";

type DriverInput = Omit<z.infer<typeof driverAddBody>, "userId">;
export type { DriverRow };

export const today = () => new Date().toISOString().slice(0, 10);

/**
 * Drivers of an enterprise tree (spec business §3, §5 Fleet): every call passes the
 * enterprise-only guard; a driver outside the caller's scope answers like an unknown id.
 */
export class DriverService {
  constructor(
    private readonly store: FleetStore,
    private readonly access: FleetAccess,
    private readonly accounts: Pick<AccountLookup, "get">,
  ) {}

  async add(session: Session, input: z.infer<typeof driverAddBody>): Promise<{ id: string }> {
    const { userId, ...fields } = input;
    const account = await this.access.targetAccount(session, userId);
    checkDates(fields);
    const now = new Date().toISOString();
    const driver: Driver = {
      ...fields,
      id: crypto.randomUUID(),
      accountId: account.id,
      avatar: "",
      vehicleId: "",
      createdAt: now,
      updatedAt: now,
    };
    if (fields.vehicleId) driver.vehicleId = (await this.vehicleIn(session, fields.vehicleId)).id;
    await this.save(driver, null);
    return { id: driver.id };
  }

  async update(session: Session, input: { id: string } & Partial<DriverInput>): Promise<null> {
    const before = await this.visible(session, input.id);
    const after: Driver = { ...before, ...input, updatedAt: new Date().toISOString() };
    checkDates(after);
    if (input.vehicleId) after.vehicleId = (await this.vehicleIn(session, input.vehicleId)).id;
    await this.save(after, before);
    return null;
  }

  async remove(session: Session, ids: string[]): Promise<null> {
    const drivers = await Promise.all(ids.map((id) => this.visible(session, id)));
    for (const d of drivers) await this.store.deleteDriver(d, await this.rootOf(d.accountId));
    return null;
  }

  async list(session: Session, input: z.infer<typeof driverListBody>): Promise<Page<DriverRow>> {
    const rows = await this.rows(await this.access.scope(session));
    const kw = input.keyword?.toLowerCase();
    const hits = rows.filter((d) =>
      (!kw || [d.name, d.driverNo, d.licenseNo, d.phone, d.rfidCardNo]
        .some((v) => v.toLowerCase().includes(kw))) &&
      (!input.licenceState || d.licenceState === input.licenceState)
    );
    const start = (input.pageNum - 1) * input.pageSize;
    return { total: hits.length, list: hits.slice(start, start + input.pageSize) };
  }

  /** Every driver the caller may see (the export). */
  async all(session: Session): Promise<DriverRow[]> {
    return await this.rows(await this.access.scope(session));
  }

  /** Every driver of the scope, newest first, with licence state and vehicle plate. */
  async rows(
    scope: FleetScope,
    /** Records already read (the board reads each list once for both kinds of rows). */
    loaded?: { drivers: Driver[]; vehicles: Vehicle[] },
  ): Promise<DriverRow[]> {
    const [drivers, vehicles] = loaded ? [loaded.drivers, loaded.vehicles] : await Promise.all([
      this.store.drivers(scope.accountIds),
      this.store.vehicles(scope.accountIds),
    ]);
    const plate = new Map(vehicles.map((v) => [v.id, v.plate]));
    // An assignment made on the vehicle (its driver) shows on the driver too.
    const assigned = new Map(vehicles.filter((v) => v.driverId).map((v) => [v.driverId, v.plate]));
    const day = today();
    return [...drivers]
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
      .map((d) => ({
        ...d,
        licenceState: expiryStateOf(d.expiredDate, day),
        vehiclePlate: plate.get(d.vehicleId) ?? assigned.get(d.id) ?? "",
      }));
  }

  /** A driver the caller may see; unknown and out-of-scope ids are refused alike. */
  async visible(session: Session, id: string): Promise<Driver> {
    const scope = await this.access.scope(session);
    const d = await this.store.driver(id);
    if (!d || !inScope(scope, d)) throw new BizError("dataNotExists");
    return d;
  }

  /** Stores the avatar file name of a driver (the file is written by DriverAvatars). */
  async setAvatar(driver: Driver, avatar: string): Promise<void> {
    await this.save({ ...driver, avatar, updatedAt: new Date().toISOString() }, driver);
  }

  private async save(d: Driver, before: Driver | null): Promise<void> {
    const conflict = await this.store.saveDriver(d, await this.rootOf(d.accountId), before);
    if (conflict) throw new BizError("rfidCardInUse", { cardNo: d.rfidCardNo });
  }

  private async vehicleIn(session: Session, id: string) {
    const scope = await this.access.scope(session);
    const v = await this.store.vehicle(id);
    if (!v || !inScope(scope, v)) throw new BizError("dataNotExists");
    return v;
  }

  /** The enterprise tree whose drivers share the RFID card numbers. */
  async rootOf(accountId: string): Promise<string> {
    const account = await this.accounts.get(accountId);
    return account ? (await enterpriseRoot(this.accounts, account)).id : accountId;
  }
}

/** Spec §5 Fleet: the licence expiry is not before the register date. */
function checkDates(d: { registerDate: string; expiredDate: string }) {
  if (d.registerDate && d.expiredDate && d.expiredDate < d.registerDate) {
    throw new BizError("driverExpiryBeforeRegister");
  }
}
