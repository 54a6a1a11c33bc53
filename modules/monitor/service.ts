import type { Session } from "../../lib/http/env.ts";
import type { AccessGuard } from "../accounts/access.ts";
import type { AccountLookup } from "../accounts/model.ts";
import type { DeviceDirectory } from "../devices/directory.ts";
import type { Device } from "../devices/model.ts";
import type { DeviceService } from "../devices/service.ts";
import { collectObjects, devicesOf } from "./objects.ts";
import { ShareService } from "./share.ts";
import type { MonitorStore } from "./store.ts";
import { LiveStreams } from "./stream.ts";
import type { LiveRelay, LiveScope } from "./live_relay.ts";
import { VisibleAccounts } from "./visibility.ts";
import { isExpired } from "../auth/service.ts";

/** The monitor area: objects for the map, the live stream, alerts feed and share links. */
export class MonitorService {
  readonly visible: VisibleAccounts;
  readonly streams: LiveStreams;
  readonly shares: ShareService;

  constructor(
    store: MonitorStore,
    private readonly access: AccessGuard,
    accounts: AccountLookup,
    private readonly directory: DeviceDirectory,
    private readonly devices: DeviceService,
    private readonly offlineMs: number,
    /** Cluster mode's live events between instances (null in single mode). */
    private readonly relay: LiveRelay | null = null,
  ) {
    this.visible = new VisibleAccounts(access, accounts);
    this.streams = new LiveStreams(directory, offlineMs, {}, relay);
    this.shares = new ShareService(store, devices, async (imei) => {
      const owner = directory.get(imei)?.userId;
      const account = owner ? await accounts.get(owner) : null;
      return !!account && !isExpired(account.expiration);
    });
  }

  /** Every device of the caller's subtree, or one device when `imei` is given. */
  async objects(session: Session, imei?: string) {
    const devices = imei
      ? [await this.devices.visibleDevice(session, imei)]
      : [...devicesOf(this.directory, await this.visible.of(session))];
    return collectObjects(this.directory, devices, this.offlineMs, {
      followed: await this.devices.followed(session.accountId),
      groupName: await this.groupNames(devices),
      facts: !!imei,
    });
  }

  /** Names of the groups the devices are in, read once per owner that uses groups. */
  private async groupNames(devices: Device[]) {
    const owners = new Set<string>();
    for (const d of devices) if (d.groupId) owners.add(d.userId);
    const names = new Map<string, string>();
    for (const owner of owners) {
      for (const g of await this.devices.groups(owner)) {
        names.set(`${owner}/${g.id}`, g.name);
      }
    }
    return (userId: string, groupId: string) => names.get(`${userId}/${groupId}`);
  }

  /** One device's entry, in the same shape (used after a visibility or share check). */
  oneObject(imei: string) {
    return collectObjects(this.directory, [this.directory.get(imei)!], this.offlineMs, {
      facts: true,
    });
  }

  /** Live events of the caller's subtree (or of one visible device). */
  async stream(session: Session, signal: AbortSignal, imei?: string) {
    if (imei) {
      await this.devices.visibleDevice(session, imei);
      return this.streams.stream((ev) => ev.imei === imei, {
        signal,
        scope: this.deviceScope(imei),
      });
    }
    const filterOf = (owners: Set<string>) => (ev: { userId: string }) => owners.has(ev.userId);
    const { owner } = await this.access.caller(session);
    return this.streams.stream(filterOf(await this.visible.below(owner.id)), {
      signal,
      refresh: async () => filterOf(await this.visible.of(session)),
      scope: { kind: "subtree", accountId: owner.id },
    });
  }

  /** Whose events one device's stream needs from other instances: its owner's own. */
  deviceScope(imei: string): LiveScope | undefined {
    const owner = this.directory.get(imei)?.userId;
    return owner ? { kind: "account", accountId: owner } : undefined;
  }

  /** Viewers whose events this instance hears from others, and the events it heard so (cluster
   *  mode; zeros in single mode). */
  relayStats(): { viewers: number; delivered: number; accountChanges: number } {
    return {
      viewers: this.relay?.viewerCount ?? 0,
      delivered: this.relay?.delivered ?? 0,
      accountChanges: this.accountChanges,
    };
  }

  /** Account moves whose routes and stream filters are renewed here (for tests and gauges). */
  private accountChanges = 0;

  /** Accounts moved (here or elsewhere): subtrees are re-read and live routes follow. */
  async accountsChanged(): Promise<void> {
    this.visible.clear();
    await this.relay?.accountsChanged();
    await this.streams.refreshFilters();
    this.accountChanges++;
  }
}
