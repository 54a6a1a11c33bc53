import type { Device, DeviceState } from "./model.ts";
import type { DeviceStore } from "./store.ts";

/**
 * The registry held in memory: this is one process, and the gateway and the device list
 * look devices up on every message and query. Writes go to the store first, then here.
 */
export class DeviceDirectory {
  private devices = new Map<string, Device>();
  private states = new Map<string, DeviceState>();
  private byOwner = new Map<string, Set<string>>();

  constructor(readonly store: DeviceStore, private readonly kv: Deno.Kv) {}

  async load(): Promise<void> {
    for await (
      const e of this.kv.list<Device>({ prefix: ["devices", "imei"] }, { batchSize: 1000 })
    ) {
      this.remember(e.value);
    }
    for await (
      const e of this.kv.list<DeviceState>({ prefix: ["devices", "state"] }, { batchSize: 1000 })
    ) {
      this.states.set(e.value.imei, e.value);
    }
  }

  get(imei: string): Device | undefined {
    return this.devices.get(imei);
  }

  state(imei: string): DeviceState | undefined {
    return this.states.get(imei);
  }

  /** Called after the store committed a device or a state. */
  remember(device: Device): void {
    const old = this.devices.get(device.imei);
    if (old && old.userId !== device.userId) this.byOwner.get(old.userId)?.delete(device.imei);
    this.devices.set(device.imei, device);
    let owned = this.byOwner.get(device.userId);
    if (!owned) this.byOwner.set(device.userId, owned = new Set());
    owned.add(device.imei);
  }

  owners(): IterableIterator<string> {
    return this.byOwner.keys();
  }

  /** Devices owned directly by one account. */
  ownedBy(userId: string): Device[] {
    return [...this.byOwner.get(userId) ?? []].map((imei) => this.devices.get(imei)!);
  }

  rememberState(state: DeviceState): void {
    this.states.set(state.imei, state);
  }

  /** Resolves what a device says it is: an IMEI, or digits an IMEI ends with (JT/T 808). */
  async resolve(id: string): Promise<Device | null> {
    const exact = this.devices.get(id);
    if (exact) return exact;
    if (!/^\d{6,20}$/.test(id)) return null;
    const imei = await this.store.findBySuffix(id.length > 15 ? id.slice(-15) : id);
    return imei ? this.devices.get(imei) ?? null : null;
  }

  get size(): number {
    return this.devices.size;
  }
}
