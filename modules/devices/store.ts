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
};

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

  /** Key of a device's state, for the gateway's group commit. */
  stateKey(imei: string): Deno.KvKey {
    return K.state(imei);
  }
}
