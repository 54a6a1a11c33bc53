import type { DriverIdentity, DriverIdentityJournal } from "../gateway/events.ts";
import type { Driver, RfidSwipe, Vehicle } from "./model.ts";

/**
 * Fleet records in KV (drivers, vehicles, RFID swipes):
 *  driver       accountId, id        Driver
 *  driverAt     id                   accountId (finds a driver by id)
 *  rfidCard     rootId, cardNo       driverId (unique within one enterprise tree)
 *  vehicle      accountId, id        Vehicle
 *  vehicleAt    id                   accountId
 *  vehicleImei  imei                 vehicle id (one vehicle per device)
 *  swipe        accountId, ms, id    RfidSwipe
 *  swipeImei    imei, ms, id         SwipeMark (who drove the device from then: trips, alerts)
 *  pending      identityId           {userId, identity}: written in the gateway's commit, turned
 *                                    into a swipe by the fleet's handler (or at start-up)
 */
const K = {
  driver: (accountId: string, id: string) => ["fleet", "driver", accountId, id],
  drivers: (accountId?: string) => accountId ? ["fleet", "driver", accountId] : ["fleet", "driver"],
  driverAt: (id: string) => ["fleet", "driverAt", id],
  rfidCard: (rootId: string, cardNo: string) => ["fleet", "rfidCard", rootId, cardNo.toUpperCase()],
  vehicle: (accountId: string, id: string) => ["fleet", "vehicle", accountId, id],
  vehicles: (accountId?: string) =>
    accountId ? ["fleet", "vehicle", accountId] : ["fleet", "vehicle"],
  vehicleAt: (id: string) => ["fleet", "vehicleAt", id],
  vehicleImei: (imei: string) => ["fleet", "vehicleImei", imei],
  swipe: (accountId: string, ms: number, id: string) => ["fleet", "swipe", accountId, ms, id],
  swipes: (accountId: string) => ["fleet", "swipe", accountId],
  swipeImei: (imei: string, ms: number, id: string) => ["fleet", "swipeImei", imei, ms, id],
  swipesOfImei: (imei: string) => ["fleet", "swipeImei", imei],
  swipeDone: (id: string) => ["fleet", "swipeDone", id],
  pending: (id: string) => ["fleet", "pending", id],
};

/** What a device's swipe says about who drives it from `time` on. */
export interface SwipeMark {
  time: number;
  type: "in" | "out";
  driverId: string;
  driverName: string;
}

function swipeMark(s: RfidSwipe): SwipeMark {
  return { time: Date.parse(s.time), type: s.type, driverId: s.driverId, driverName: s.driverName };
}

/** A unique key another record already holds: what the service turns into a refusal. */
export type Conflict = "rfidCard" | "imei" | null;

export interface PendingIdentity {
  userId: string;
  identity: DriverIdentity;
}

export class FleetStore implements DriverIdentityJournal {
  constructor(private readonly kv: Deno.Kv) {}

  // ---- drivers ----

  async driver(id: string): Promise<Driver | null> {
    const at = await this.kv.get<string>(K.driverAt(id));
    if (!at.value) return null;
    return (await this.kv.get<Driver>(K.driver(at.value, id))).value;
  }

  /** Drivers of the given accounts (every account when null). */
  async drivers(accountIds: Iterable<string> | null): Promise<Driver[]> {
    return await this.listOf<Driver>(accountIds, K.drivers);
  }

  /** The driver holding a card in an enterprise tree, if any. */
  async driverIdByCard(rootId: string, cardNo: string): Promise<string | null> {
    return (await this.kv.get<string>(K.rfidCard(rootId, cardNo))).value;
  }

  /**
   * Writes a driver and its card claim in one commit; refuses when another driver of the
   * tree holds the card. `before` is the stored record being replaced (null for a new one).
   */
  async saveDriver(d: Driver, rootId: string, before: Driver | null): Promise<Conflict> {
    const op = this.kv.atomic();
    const cardChanged = !before || before.rfidCardNo.toUpperCase() !== d.rfidCardNo.toUpperCase();
    if (d.rfidCardNo && cardChanged) {
      const key = K.rfidCard(rootId, d.rfidCardNo);
      const held = await this.kv.get<string>(key);
      if (held.value && held.value !== d.id) return "rfidCard";
      op.check(held).set(key, d.id);
    }
    if (before?.rfidCardNo && cardChanged) op.delete(K.rfidCard(rootId, before.rfidCardNo));
    op.set(K.driver(d.accountId, d.id), d).set(K.driverAt(d.id), d.accountId);
    return (await op.commit()).ok ? null : "rfidCard";
  }

  async deleteDriver(d: Driver, rootId: string): Promise<void> {
    const op = this.kv.atomic().delete(K.driver(d.accountId, d.id)).delete(K.driverAt(d.id));
    if (d.rfidCardNo) {
      const key = K.rfidCard(rootId, d.rfidCardNo);
      if ((await this.kv.get<string>(key)).value === d.id) op.delete(key);
    }
    await op.commit();
  }

  /** Drivers and vehicles of the accounts, read side by side. */
  async lists(accountIds: Iterable<string> | null) {
    const ids = accountIds === null ? null : [...accountIds];
    const [drivers, vehicles] = await Promise.all([this.drivers(ids), this.vehicles(ids)]);
    return { drivers, vehicles };
  }

  // ---- vehicles ----

  async vehicle(id: string): Promise<Vehicle | null> {
    const at = await this.kv.get<string>(K.vehicleAt(id));
    if (!at.value) return null;
    return (await this.kv.get<Vehicle>(K.vehicle(at.value, id))).value;
  }

  async vehicles(accountIds: Iterable<string> | null): Promise<Vehicle[]> {
    return await this.listOf<Vehicle>(accountIds, K.vehicles);
  }

  async vehicleByImei(imei: string): Promise<Vehicle | null> {
    const id = (await this.kv.get<string>(K.vehicleImei(imei))).value;
    return id ? await this.vehicle(id) : null;
  }

  /** Writes a vehicle and its device claim in one commit; refuses a device another holds. */
  async saveVehicle(v: Vehicle, before: Vehicle | null): Promise<Conflict> {
    const op = this.kv.atomic();
    if (v.imei && v.imei !== before?.imei) {
      const held = await this.kv.get<string>(K.vehicleImei(v.imei));
      if (held.value && held.value !== v.id) return "imei";
      op.check(held).set(K.vehicleImei(v.imei), v.id);
    }
    if (before?.imei && before.imei !== v.imei) op.delete(K.vehicleImei(before.imei));
    if (before && before.accountId !== v.accountId) op.delete(K.vehicle(before.accountId, v.id));
    op.set(K.vehicle(v.accountId, v.id), v).set(K.vehicleAt(v.id), v.accountId);
    return (await op.commit()).ok ? null : "imei";
  }

  async deleteVehicle(v: Vehicle): Promise<void> {
    const op = this.kv.atomic().delete(K.vehicle(v.accountId, v.id)).delete(K.vehicleAt(v.id));
    if (v.imei) op.delete(K.vehicleImei(v.imei));
    await op.commit();
  }

  // ---- swipes ----

  /** The gateway's commit keeps each identity report here until it is a swipe record. */
  addTo(op: Deno.AtomicOperation, userId: string, identity: DriverIdentity): void {
    op.set(K.pending(identity.id), { userId, identity } satisfies PendingIdentity);
  }

  async *pending(): AsyncGenerator<PendingIdentity> {
    for await (const e of this.kv.list<PendingIdentity>({ prefix: ["fleet", "pending"] })) {
      yield e.value;
    }
  }

  /**
   * Stores a swipe once (a device resending the same report after a lost ack keeps one
   * record: `id` is derived from device, time and card) and sets the vehicle's current driver.
   */
  async addSwipe(s: RfidSwipe, vehicle: Vehicle | null): Promise<boolean> {
    const done = await this.kv.get(K.swipeDone(s.id));
    if (done.versionstamp) {
      await this.kv.delete(K.pending(s.id));
      return false;
    }
    const op = this.kv.atomic().check(done).delete(K.pending(s.id))
      .set(K.swipe(s.accountId, Date.parse(s.time), s.id), s)
      .set(K.swipeImei(s.imei, Date.parse(s.time), s.id), swipeMark(s))
      .set(K.swipeDone(s.id), true);
    if (vehicle) op.set(K.vehicle(vehicle.accountId, vehicle.id), vehicle);
    return (await op.commit()).ok;
  }

  /** Swipes of the accounts within [fromMs, toMs], newest first. */
  async swipes(accountIds: Iterable<string> | null, fromMs: number, toMs: number) {
    const out: RfidSwipe[] = [];
    const ids = accountIds ?? await this.swipeAccounts();
    for (const accountId of ids) {
      const iter = this.kv.list<RfidSwipe>({
        start: [...K.swipes(accountId), fromMs],
        end: [...K.swipes(accountId), toMs + 1],
      });
      for await (const e of iter) out.push(e.value);
    }
    return out.sort((a, b) => b.time.localeCompare(a.time));
  }

  /**
   * A device's swipe marks within [fromMs, toMs] in time order, led by the last one before
   * `fromMs` (who was driving when the range begins); empty when the device never saw a swipe.
   */
  async deviceSwipes(imei: string, fromMs: number, toMs: number): Promise<SwipeMark[]> {
    const out: SwipeMark[] = [];
    const before = this.kv.list<SwipeMark>({
      start: K.swipesOfImei(imei),
      end: [...K.swipesOfImei(imei), fromMs],
    }, { reverse: true, limit: 1 });
    for await (const e of before) out.push(e.value);
    const within = this.kv.list<SwipeMark>({
      start: [...K.swipesOfImei(imei), fromMs],
      end: [...K.swipesOfImei(imei), toMs + 1],
    });
    for await (const e of within) out.push(e.value);
    return out;
  }

  private async swipeAccounts(): Promise<string[]> {
    const ids = new Set<string>();
    for await (const e of this.kv.list({ prefix: ["fleet", "swipe"] })) ids.add(String(e.key[2]));
    return [...ids];
  }

  private async listOf<T>(
    accountIds: Iterable<string> | null,
    prefix: (accountId?: string) => Deno.KvKey,
  ): Promise<T[]> {
    const out: T[] = [];
    for (const p of accountIds === null ? [prefix()] : [...accountIds].map((a) => prefix(a))) {
      for await (const e of this.kv.list<T>({ prefix: p })) out.push(e.value);
    }
    return out;
  }
}
