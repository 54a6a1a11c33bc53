import type { z } from "zod";
import { BizError } from "../../lib/errors.ts";
import type { Session } from "../../lib/http/env.ts";
import type { AccountLookup } from "../accounts/model.ts";
import type { DriverIdentified, DriverIdentity } from "../gateway/events.ts";
import { enterpriseRoot, type FleetAccess } from "./access.ts";
import type { Driver, Page, RfidSwipe, SwipeRow, Vehicle } from "./model.ts";
import type { rfidExportBody, rfidListBody } from "./schemas.ts";
import type { FleetStore } from "./store.ts";
import { log } from "../../lib/log.ts";
import { parseLocal, safeZone } from "../monitor/time.ts";

const swipeLog = log.area("fleet");

export type { SwipeRow };

/**
 * RFID swipes: the gateway keeps each driver identity report in its commit (FleetStore as its
 * DriverIdentityJournal); this turns it into a swipe record linked to the driver whose RFID card
 * number, else licence number, is the card's (unknown cards are kept, flagged), and sets the
 * bound vehicle's current driver.
 */
export class SwipeService {
  /** The last swipe being recorded per device: a device's swipes are recorded one at a time. */
  private readonly inFlight = new Map<string, Promise<unknown>>();

  constructor(
    private readonly store: FleetStore,
    private readonly access: FleetAccess,
    private readonly accounts: Pick<AccountLookup, "get" | "subtree">,
  ) {}

  /** The durable handler of "driverIdentified" (app/events.ts). */
  readonly onIdentified = async (e: DriverIdentified): Promise<void> => {
    await this.record(e.userId, e.identity);
  };

  /** Start-up: identities the process stored but did not turn into swipes before it stopped. */
  async recover(): Promise<number> {
    let n = 0;
    for await (const p of this.store.pending()) {
      await this.record(p.userId, p.identity).catch((err) =>
        swipeLog.error(`swipe ${p.identity.id} not recorded`, err)
      );
      n++;
    }
    return n;
  }

  /**
   * Records a swipe after the device's earlier ones: the gateway publishes a batch's events
   * without waiting, and two swipes read together would both see the shift not started ("in").
   */
  record(userId: string, identity: DriverIdentity): Promise<RfidSwipe> {
    const before = this.inFlight.get(identity.imei) ?? Promise.resolve();
    const next = before.catch(() => {}).then(() => this.recordNow(userId, identity));
    this.inFlight.set(identity.imei, next);
    const forget = () => {
      if (this.inFlight.get(identity.imei) === next) this.inFlight.delete(identity.imei);
    };
    next.then(forget, forget);
    return next;
  }

  private async recordNow(userId: string, identity: DriverIdentity): Promise<RfidSwipe> {
    const vehicle = await this.store.vehicleByImei(identity.imei);
    let driver = await this.match(userId, identity.cardNo);
    // A card removal without a code (JT/T 808 state 2) ends the current driver's shift.
    if (!driver && identity.type === "out" && !identity.cardNo && vehicle?.currentDriverId) {
      driver = await this.store.driver(vehicle.currentDriverId);
    }
    const type = identity.type === "swipe"
      ? (driver && vehicle?.currentDriverId === driver.id ? "out" : "in")
      : identity.type;
    const swipe: RfidSwipe = {
      id: identity.id,
      accountId: userId,
      imei: identity.imei,
      time: identity.time,
      type,
      cardNo: identity.cardNo,
      driverId: driver?.id ?? "",
      driverName: driver?.name ?? "",
      unknown: !driver && identity.readResult === 0,
      reportedName: identity.name,
      issuer: identity.issuer,
      certificateExpiry: identity.certificateExpiry,
      readResult: identity.readResult,
      lat: identity.lat,
      lng: identity.lng,
    };
    await this.store.addSwipe(swipe, vehicle ? withCurrentDriver(vehicle, swipe) : null);
    return swipe;
  }

  /** The driver of the device owner's enterprise tree with this card (then licence) number. */
  private async match(userId: string, cardNo: string): Promise<Driver | null> {
    if (!cardNo) return null;
    const owner = await this.accounts.get(userId);
    if (!owner) return null;
    const root = await enterpriseRoot(this.accounts, owner);
    const byCard = await this.store.driverIdByCard(root.id, cardNo);
    if (byCard) return await this.store.driver(byCard);
    const ids = [root.id];
    for await (const { id } of this.accounts.subtree(root.id)) ids.push(id);
    const want = cardNo.toUpperCase();
    return (await this.store.drivers(ids)).find((d) => d.licenseNo.toUpperCase() === want) ??
      null;
  }

  /** The caller's time zone: the list's dates are days there, the sheet's times too. */
  async timeZone(session: Session): Promise<string> {
    return safeZone((await this.accounts.get(session.accountId))?.timeZones);
  }

  async list(session: Session, input: z.infer<typeof rfidListBody>): Promise<Page<SwipeRow>> {
    const rows = await this.rows(session, input);
    const start = (input.pageNum - 1) * input.pageSize;
    return { total: rows.length, list: rows.slice(start, start + input.pageSize) };
  }

  /** Every swipe of the scope in the range and filters, newest first. */
  async rows(session: Session, input: z.infer<typeof rfidExportBody>): Promise<SwipeRow[]> {
    const scope = await this.access.scope(session);
    const zone = await this.timeZone(session);
    const from = parseLocal(asLocal(input.startTime, "00:00:00"), zone);
    const to = parseLocal(asLocal(input.endTime, "23:59:59.999"), zone);
    if (!(from <= to)) {
      throw new BizError("illegalParameter", { field: "endTime", reasonKey: "validation.invalid" });
    }
    const vehicles = await this.store.vehicles(scope.accountIds);
    const plateOf = new Map(vehicles.map((v) => [v.imei, v.plate]));
    const vehicleImei = input.vehicleId
      ? vehicles.find((v) => v.id === input.vehicleId)?.imei ?? "-"
      : undefined;
    return (await this.store.swipes(scope.accountIds, from, to))
      .filter((s) =>
        (!input.driverId || s.driverId === input.driverId) &&
        (!input.imei || s.imei === input.imei) &&
        (!vehicleImei || s.imei === vehicleImei) &&
        (!input.unknownOnly || s.unknown)
      )
      .map((s) => ({
        id: s.id,
        cardNo: s.cardNo,
        driverId: s.driverId,
        driverName: s.driverName,
        imei: s.imei,
        plate: plateOf.get(s.imei) ?? "",
        time: s.time,
        type: s.type,
        lat: s.lat,
        lng: s.lng,
        unknown: s.unknown,
        reportedName: s.reportedName,
        issuer: s.issuer,
        certificateExpiry: s.certificateExpiry,
      }));
  }
}

/** The vehicle after a swipe: "in" makes the driver current, "out" of the current one clears. */
function withCurrentDriver(v: Vehicle, s: RfidSwipe): Vehicle | null {
  if (s.type === "in" && s.driverId && v.currentDriverId !== s.driverId) {
    return { ...v, currentDriverId: s.driverId };
  }
  if (s.type === "out" && v.currentDriverId && v.currentDriverId === s.driverId) {
    return { ...v, currentDriverId: "" };
  }
  return null;
}

/** "YYYY-MM-DD[ HH:mm[:ss]]" as a wall-clock time; a bare date takes the given time of day. */
function asLocal(v: string, dayTime: string): string {
  const [d, t] = v.split(" ");
  const time = t ? (t.length === 5 ? `${t}:00` : t) : dayTime;
  return `${d}T${time}`;
}
