import type { Device, DeviceState } from "./model.ts";
import type { AllocationEntry, DeviceStore } from "./store.ts";

/**
 * The registry held in memory: this is one process, and the gateway and the device list
 * look devices up on every message and query. Write-through: device writes go through here
 * to the store first, then into memory, so the two cannot drift; the store is not handed out.
 * Device states are the exception by design: the gateway changes them in memory on every
 * commit (its journal holds what they come from) and writes them in batches (saveStates).
 */
export class DeviceDirectory {
  private devices = new Map<string, Device>();
  private states = new Map<string, DeviceState>();
  private byOwner = new Map<string, Set<string>>();

  constructor(private readonly store: DeviceStore) {}

  async load(): Promise<void> {
    for await (const device of this.store.allDevices()) this.remember(device);
    for await (const state of this.store.allStates()) this.states.set(state.imei, state);
  }

  /** Adds new devices; returns the IMEIs another writer inserted first (those are skipped). */
  async insertMany(devices: Device[]): Promise<Set<string>> {
    const raced = await this.store.insertMany(devices);
    for (const d of devices) if (!raced.has(d.imei)) this.remember(d);
    return raced;
  }

  /** Writes one device record (the gateway's activation). */
  async update(device: Device): Promise<void> {
    await this.store.update(device);
    this.remember(device);
  }

  /** Writes changed device records with their allocation log entries in one commit. */
  async saveMany(
    changes: { before: Device; after: Device }[],
    log: AllocationEntry[] = [],
  ): Promise<void> {
    await this.store.saveMany(changes, log);
    for (const { after } of changes) this.remember(after);
  }

  /**
   * Writes the in-memory states of these devices in one commit (the gateway's batched
   * flush); false when the commit did not go through.
   */
  saveStates(imeis: string[]): Promise<boolean> {
    const states: DeviceState[] = [];
    for (const imei of imeis) {
      const state = this.states.get(imei);
      if (state) states.push(state);
    }
    return this.store.saveStates(states);
  }

  get(imei: string): Device | undefined {
    return this.devices.get(imei);
  }

  state(imei: string): DeviceState | undefined {
    return this.states.get(imei);
  }

  /** Into memory only: after a write through here, or at load. */
  private remember(device: Device): void {
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
