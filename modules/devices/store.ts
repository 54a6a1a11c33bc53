import { nextSequence } from "../../lib/kv/open.ts";
import type { Device, DeviceState } from "./model.ts";

/**
 * KV keys of the device registry:
 *  imei      imei → Device
 *  owner     userId, imei          (devices of one account; deletion guard)
 *  suffix    reversed imei → imei  (JT/T 808 terminal numbers match an IMEI's trailing digits)
 *  state     imei → DeviceState    (latest position and status, written by the gateway)
 */
const K = {
  device: (imei: string) => ["devices", "imei", imei],
  owner: (userId: string, imei?: string) =>
    imei ? ["devices", "owner", userId, imei] : ["devices", "owner", userId],
  suffix: (reversed: string) => ["devices", "suffix", reversed],
  suffixPrefix: ["devices", "suffix"],
  state: (imei: string) => ["devices", "state", imei],
  detail: (imei: string) => ["devices", "detail", imei],
  group: (userId: string, groupId?: string) =>
    groupId ? ["devices", "group", userId, groupId] : ["devices", "group", userId],
  groupSeq: ["devices", "groupSeq"],
  follow: (accountId: string, imei?: string) =>
    imei ? ["devices", "follow", accountId, imei] : ["devices", "follow", accountId],
  alias: (accountId: string) => ["devices", "modelAlias", accountId],
  alloc: (time: string, id: string) => ["devices", "alloc", time, id],
  imageTask: (accountId: string, time?: string, id?: string) =>
    time ? ["devices", "imageTask", accountId, time, id!] : ["devices", "imageTask", accountId],
  /** Accounts from which the platform expiry is hidden (showPlatformExpiration 0). */
  expiryHidden: (accountId: string) => ["devices", "expiryHidden", accountId],
  allocPrefix: ["devices", "alloc"],
};

/** A device group of one account (spec §5: name ≤ 20, unique per account). */
export interface DeviceGroup {
  id: string;
  userId: string;
  name: string;
  /** Pinned groups sort first (topUserGroup); the latest pin wins. */
  topAt: string | null;
  createdAt: string;
}

/** One install image upload task (spec §5: the list shows at most 9999). */
export interface ImageTask {
  id: string;
  time: string;
  name: string;
  imei: string | null;
  ok: boolean;
  /** Catalogue name of the refusal. */
  error: string | null;
}

/** Spec §5: the install image task list shows at most 9999 tasks; older ones are dropped. */
export const MAX_IMAGE_TASKS = 9999;

/** One allocation log entry: a device moved from one account to another. */
export interface AllocationEntry {
  imei: string;
  fromUserId: string;
  toUserId: string;
  operatorId: string;
  time: string;
}

const reverse = (s: string) => [...s].reverse().join("");

export class DeviceStore {
  constructor(private readonly kv: Deno.Kv) {}

  async get(imei: string): Promise<Device | null> {
    return (await this.kv.get<Device>(K.device(imei))).value;
  }

  async getMany(imeis: string[]): Promise<Device[]> {
    const out: Device[] = [];
    for (let i = 0; i < imeis.length; i += 10) {
      for (const r of await this.kv.getMany<Device[]>(imeis.slice(i, i + 10).map(K.device))) {
        if (r.value) out.push(r.value);
      }
    }
    return out;
  }

  async states(imeis: string[]): Promise<Map<string, DeviceState>> {
    const out = new Map<string, DeviceState>();
    for (let i = 0; i < imeis.length; i += 10) {
      for (const r of await this.kv.getMany<DeviceState[]>(imeis.slice(i, i + 10).map(K.state))) {
        if (r.value) out.set(r.value.imei, r.value);
      }
    }
    return out;
  }

  /** Inserts new devices; returns the IMEIs that already existed (not inserted). */
  async insertMany(devices: Device[]): Promise<Set<string>> {
    const existing = new Set<string>();
    // Four mutations per device, so 100 devices stay under the 1000-mutation commit limit.
    for (let i = 0; i < devices.length; i += 100) {
      const batch = devices.slice(i, i + 100);
      const op = this.kv.atomic();
      for (const d of batch) {
        op.check({ key: K.device(d.imei), versionstamp: null })
          .set(K.device(d.imei), d)
          .set(K.owner(d.userId, d.imei), null)
          .set(K.suffix(reverse(d.imei)), d.imei);
      }
      if ((await op.commit()).ok) continue;
      // Some already exist: fall back to one commit per device to find which.
      for (const d of batch) {
        const one = this.kv.atomic().check({ key: K.device(d.imei), versionstamp: null })
          .set(K.device(d.imei), d)
          .set(K.owner(d.userId, d.imei), null)
          .set(K.suffix(reverse(d.imei)), d.imei);
        if (!(await one.commit()).ok) existing.add(d.imei);
      }
    }
    return existing;
  }

  async update(device: Device): Promise<void> {
    await this.kv.set(K.device(device.imei), device);
  }

  /**
   * Saves changed devices, moving the owner index of those whose account changed, and
   * appends their allocation log entries. Batched under the KV commit limits.
   */
  async saveMany(
    changes: { before: Device; after: Device }[],
    log: AllocationEntry[] = [],
  ): Promise<void> {
    const ops: ((op: Deno.AtomicOperation) => void)[] = [];
    for (const { before, after } of changes) {
      ops.push((op) => {
        op.set(K.device(after.imei), after);
        if (before.userId !== after.userId) {
          op.delete(K.owner(before.userId, before.imei)).set(
            K.owner(after.userId, after.imei),
            null,
          );
        }
      });
    }
    for (const e of log) {
      ops.push((op) => op.set(K.alloc(e.time, crypto.randomUUID()), e));
    }
    // At most three mutations per entry: 250 entries stay under the 1000-mutation limit.
    for (let i = 0; i < ops.length; i += 250) {
      const op = this.kv.atomic();
      for (const f of ops.slice(i, i + 250)) f(op);
      await op.commit();
    }
  }

  async getDetail<T>(imei: string): Promise<T | null> {
    return (await this.kv.get<T>(K.detail(imei))).value;
  }

  async setDetail<T>(imei: string, detail: T): Promise<void> {
    await this.kv.set(K.detail(imei), detail);
  }

  async groups(userId: string): Promise<DeviceGroup[]> {
    const out: DeviceGroup[] = [];
    for await (const e of this.kv.list<DeviceGroup>({ prefix: K.group(userId) })) out.push(e.value);
    return out;
  }

  async getGroup(userId: string, groupId: string): Promise<DeviceGroup | null> {
    return (await this.kv.get<DeviceGroup>(K.group(userId, groupId))).value;
  }

  async newGroupId(): Promise<string> {
    return String(await nextSequence(this.kv, K.groupSeq));
  }

  async saveGroup(g: DeviceGroup): Promise<void> {
    await this.kv.set(K.group(g.userId, g.id), g);
  }

  async deleteGroup(g: DeviceGroup): Promise<void> {
    await this.kv.delete(K.group(g.userId, g.id));
  }

  async followed(accountId: string): Promise<Set<string>> {
    const out = new Set<string>();
    for await (const e of this.kv.list({ prefix: K.follow(accountId) })) {
      out.add(String(e.key.at(-1)));
    }
    return out;
  }

  async setFollow(accountId: string, imeis: string[], on: boolean): Promise<void> {
    for (let i = 0; i < imeis.length; i += 500) {
      const op = this.kv.atomic();
      for (const imei of imeis.slice(i, i + 500)) {
        if (on) op.set(K.follow(accountId, imei), null);
        else op.delete(K.follow(accountId, imei));
      }
      await op.commit();
    }
  }

  async modelAliases(accountId: string): Promise<Record<string, string>> {
    return (await this.kv.get<Record<string, string>>(K.alias(accountId))).value ?? {};
  }

  async setModelAliases(accountId: string, aliases: Record<string, string>): Promise<void> {
    await this.kv.set(K.alias(accountId), aliases);
  }

  /** Allocation log, newest first. */
  async allocations(limit: number): Promise<AllocationEntry[]> {
    const out: AllocationEntry[] = [];
    for await (
      const e of this.kv.list<AllocationEntry>({ prefix: K.allocPrefix }, { reverse: true, limit })
    ) out.push(e.value);
    return out;
  }

  /** Records upload tasks of a user and drops the oldest beyond MAX_IMAGE_TASKS. */
  async addImageTasks(accountId: string, tasks: ImageTask[], max = MAX_IMAGE_TASKS) {
    for (let i = 0; i < tasks.length; i += 500) {
      const op = this.kv.atomic();
      for (const t of tasks.slice(i, i + 500)) op.set(K.imageTask(accountId, t.time, t.id), t);
      await op.commit();
    }
    const old: Deno.KvKey[] = [];
    let n = 0;
    for await (
      const e of this.kv.list({ prefix: K.imageTask(accountId) }, { reverse: true })
    ) if (++n > max) old.push(e.key);
    for (let i = 0; i < old.length; i += 500) {
      const op = this.kv.atomic();
      for (const k of old.slice(i, i + 500)) op.delete(k);
      await op.commit();
    }
  }

  /** A page of a user's upload tasks, newest first, with the total. */
  async imageTasks(accountId: string, offset: number, limit: number) {
    const list: ImageTask[] = [];
    let total = 0;
    for await (
      const e of this.kv.list<ImageTask>({ prefix: K.imageTask(accountId) }, { reverse: true })
    ) {
      if (total >= offset && list.length < limit) list.push(e.value);
      total++;
    }
    return { total, list };
  }

  /** The accounts among `ids` whose showPlatformExpiration is 0. */
  async expiryHidden(ids: string[]): Promise<Set<string>> {
    const out = new Set<string>();
    for (let i = 0; i < ids.length; i += 10) {
      const res = await this.kv.getMany(ids.slice(i, i + 10).map(K.expiryHidden));
      for (const r of res) if (r.versionstamp) out.add(String(r.key.at(-1)));
    }
    return out;
  }

  async setExpiryHidden(accountId: string, hidden: boolean): Promise<void> {
    if (hidden) await this.kv.set(K.expiryHidden(accountId), true);
    else await this.kv.delete(K.expiryHidden(accountId));
  }

  async hasDevices(userId: string): Promise<boolean> {
    for await (const _ of this.kv.list({ prefix: K.owner(userId) }, { limit: 1 })) return true;
    return false;
  }

  /**
   * The device a JT/T 808 terminal number belongs to: the one IMEI ending with its digits,
   * tried as sent first (a terminal number taken from an IMEI's last 12 digits may start with
   * zeros that are part of the IMEI, e.g. 860000000000017 → 000000000017), then with leading
   * zeros dropped (short phone numbers padded to 12 digits). Null when none or more than one match.
   */
  async findBySuffix(digits: string): Promise<string | null> {
    for (const tail of new Set([digits, digits.replace(/^0+/, "")])) {
      if (tail.length < 6) continue;
      const imei = await this.findByExactSuffix(tail);
      if (imei) return imei;
    }
    return null;
  }

  private async findByExactSuffix(tail: string): Promise<string | null> {
    const found: string[] = [];
    const rev = reverse(tail);
    for await (
      const e of this.kv.list<string>({ start: K.suffix(rev), end: K.suffix(rev + "\uffff") }, {
        limit: 2,
      })
    ) found.push(e.value);
    return found.length === 1 ? found[0] : null;
  }

  async getState(imei: string): Promise<DeviceState | null> {
    return (await this.kv.get<DeviceState>(K.state(imei))).value;
  }

  /** Writes device states in one commit; false when it did not go through. */
  async saveStates(states: DeviceState[]): Promise<boolean> {
    const op = this.kv.atomic();
    for (const state of states) op.set(K.state(state.imei), state);
    return (await op.commit()).ok;
  }

  /** Every device (start-up: the directory loads them all). */
  async *allDevices(): AsyncGenerator<Device> {
    const iter = this.kv.list<Device>({ prefix: ["devices", "imei"] }, { batchSize: 1000 });
    for await (const e of iter) yield e.value;
  }

  /** Every device state (start-up). */
  async *allStates(): AsyncGenerator<DeviceState> {
    const iter = this.kv.list<DeviceState>({ prefix: ["devices", "state"] }, { batchSize: 1000 });
    for await (const e of iter) yield e.value;
  }
}
