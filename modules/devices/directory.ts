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
  /**
   * Told after each write of device records and each state flush (cluster mode's sync tells the
   * other instances, modules/devices/directory_sync.ts); nothing listens in single mode.
   */
  onWritten: (imeis: string[]) => void = () => {};
  onStatesSaved: (imeis: string[]) => void = () => {};
  /** Set in cluster mode: other instances add devices to the store this one has not seen. */
  readsThrough = false;

  constructor(private readonly store: DeviceStore) {}

  async load(): Promise<void> {
    for await (const device of this.store.allDevices()) this.remember(device);
    for await (const state of this.store.allStates()) this.states.set(state.imei, state);
  }

  /** Adds new devices; returns the IMEIs another writer inserted first (those are skipped). */
  async insertMany(devices: Device[]): Promise<Set<string>> {
    const raced = await this.store.insertMany(devices);
    for (const d of devices) if (!raced.has(d.imei)) this.remember(d);
    this.onWritten(devices.filter((d) => !raced.has(d.imei)).map((d) => d.imei));
    return raced;
  }

  /** Writes one device record (the gateway's activation). */
  async update(device: Device): Promise<void> {
    await this.store.update(device);
    this.remember(device);
    this.onWritten([device.imei]);
  }

  /** Writes changed device records with their allocation log entries in one commit. */
  async saveMany(
    changes: { before: Device; after: Device }[],
    log: AllocationEntry[] = [],
  ): Promise<void> {
    await this.store.saveMany(changes, log);
    for (const { after } of changes) this.remember(after);
    this.onWritten(changes.map((c) => c.after.imei));
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
    return this.store.saveStates(states).then((saved) => {
      if (saved) this.onStatesSaved(imeis);
      return saved;
    });
  }

  /** Re-reads device records another instance wrote (cluster mode). */
  async reload(imeis: string[]): Promise<void> {
    for (const device of await this.store.getMany(imeis)) this.remember(device);
  }

  /**
   * Takes the states another instance flushed when they are newer than the one in memory
   * (the instance holding a device keeps its state current and flushes it every few seconds).
   */
  async reloadStates(imeis: string[]): Promise<void> {
    for (const state of (await this.store.states(imeis)).values()) this.rememberNewerState(state);
  }

  /** Keeps `state` unless memory already has a later message of the device. */
  rememberNewerState(state: DeviceState): void {
    const known = this.states.get(state.imei);
    if (known && (known.hbTime ?? 0) > (state.hbTime ?? 0)) return;
    this.states.set(state.imei, state);
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
    const exact = this.devices.get(id) ?? await this.readThrough(id);
    if (exact) return exact;
    if (!/^\d{6,20}$/.test(id)) return null;
    const imei = await this.store.findBySuffix(id.length > 15 ? id.slice(-15) : id);
    return imei ? this.devices.get(imei) ?? await this.readThrough(imei) : null;
  }

  /**
   * Cluster mode: a device missing from memory is looked up in the store (a login of a device
   * another instance imported, should its sync message have been lost). Single mode: never.
   */
  private async readThrough(imei: string): Promise<Device | null> {
    if (!this.readsThrough) return null;
    const device = await this.store.get(imei);
    if (device) this.remember(device);
    return device;
  }

  get size(): number {
    return this.devices.size;
  }
}
