import type { z } from "zod";
import { BizError, CATALOGUE, type ErrorName } from "../../lib/errors.ts";
import type { Session } from "../../lib/http/env.ts";
import type { AccessGuard } from "../accounts/access.ts";
import type { AccountLookup } from "../accounts/model.ts";
import type { DeviceDirectory } from "./directory.ts";
import type { AllocationEntry, DeviceGroup, DeviceStore } from "./store.ts";
import {
  activationState,
  deriveStatus,
  type Device,
  type DeviceState,
  type DeviceStatus,
  STATUS_FILTERS,
} from "./model.ts";
import { findModel } from "./models.ts";
import type { filterBody, importBody, listBody } from "./schemas.ts";
import { matcher } from "./filters.ts";
import type { Publisher } from "../../lib/events/bus.ts";
import type { DevicesImported } from "./events.ts";

/** Online states: the device reported within the offline threshold. */
export const ONLINE = new Set<DeviceStatus>(["moving", "idling", "stopped"]);

export interface Row {
  d: Device;
  state: DeviceState | null;
  status: DeviceStatus;
}

export const MAX_IMPORT = 1000;

/** Extra columns of a spreadsheet import row (already validated by the sheet reader). */
export interface ImportRow {
  imei: string;
  deviceName?: string;
  sim?: string;
}

export interface ImportFailure {
  imei: string;
  code: number;
  reason: string;
}

/** The minimal device registry: import, list with live state, lookups with visibility checks. */
export class DeviceService {
  constructor(
    private readonly directory: DeviceDirectory,
    /** Device records besides the directory's: groups, follows, details, allocations. */
    private readonly store: DeviceStore,
    private readonly accounts: AccountLookup,
    private readonly access: AccessGuard,
    private readonly offlineMs: number,
    /** Told after devices were imported (the message center, the gateway's auth codes). */
    private readonly events: Publisher<DevicesImported>,
  ) {}

  /** Spec §6: editing devices needs updateDevFlag = 1, and updateFlag = 1 for virtual users. */
  async assertCanEdit(session: Session): Promise<void> {
    const { self, owner } = await this.access.caller(session);
    if (owner.permissions.updateDevFlag !== 1) throw new BizError("permissionDenied");
    if (self.virtual && self.virtual.scope.updateFlag !== 1) throw new BizError("permissionDenied");
  }

  async import(
    session: Session,
    input: z.infer<typeof importBody> & { rows?: ImportRow[] },
    translate: (name: ErrorName, params?: Record<string, string>) => string,
  ): Promise<{ succeeded: number; failed: ImportFailure[] }> {
    await this.assertCanEdit(session);
    const owner = await this.access.visibleAccount(session, input.userId);
    if (owner.virtual) throw new BizError("superiorInvalid");
    if (!findModel(input.mcType)) throw new BizError("modelNotExists");
    const groupId = input.groupId && input.groupId !== "0" ? input.groupId : null;
    if (groupId && !await this.store.getGroup(owner.id, groupId)) {
      throw new BizError("groupNotExists");
    }
    const failed: ImportFailure[] = [];
    const fail = (imei: string, name: ErrorName) =>
      failed.push({ imei, code: CATALOGUE[name], reason: translate(name, { imei }) });
    const seen = new Set<string>();
    const fresh: Device[] = [];
    const now = new Date().toISOString();
    const extra = new Map((input.rows ?? []).map((r) => [r.imei.trim(), r]));
    for (const raw of input.imeis) {
      const imei = raw.trim();
      if (!imei) fail(raw, "imeiEmpty");
      else if (!/^\d{15}$/.test(imei)) fail(imei, "imeiInvalid");
      else if (seen.has(imei)) fail(imei, "imeiRepeated");
      else if (this.directory.get(imei)) fail(imei, "imeiExists");
      else {
        seen.add(imei);
        fresh.push({
          imei,
          mcType: input.mcType,
          userId: owner.id,
          deviceName: extra.get(imei)?.deviceName || imei.slice(-6),
          sim: extra.get(imei)?.sim ?? "",
          enabled: true,
          createdAt: now,
          activationTime: null,
          expiration: null,
          userExpiration: null,
          timezoneOffsetMinutes: null,
          activationMode: input.activationMode ?? "auto",
          activationAllowed: false,
          groupId,
        });
      }
    }
    const raced = await this.directory.insertMany(fresh);
    for (const d of fresh) if (raced.has(d.imei)) fail(d.imei, "imeiExists");
    await this.events.deliver({
      type: "devicesImported",
      userId: owner.id,
      devices: fresh.filter((d) => !raced.has(d.imei)),
      operatorId: session.accountId,
    });
    return { succeeded: fresh.length - raced.size, failed };
  }

  /** The devices of an account's subtree (or only its own) that pass every filter. */
  async select(session: Session, input: z.infer<typeof filterBody>): Promise<Row[]> {
    const { owner } = await this.access.caller(session);
    const root = input.userId ? await this.access.visibleAccount(session, input.userId) : owner;
    const owners = [root.id];
    if (!input.ownOnly) {
      for await (const { id } of this.accounts.subtree(root.id)) owners.push(id);
    }
    const now = Date.now();
    const match = matcher(input, now);
    const wanted = input.status ? new Set<DeviceStatus>(STATUS_FILTERS[input.status]) : null;
    const followed = input.followed === undefined
      ? null
      : await this.store.followed(session.accountId);
    const exact = input.imeis?.length ? new Set(input.imeis) : null;
    const rows: Row[] = [];
    for (const userId of owners) {
      for (const d of this.directory.ownedBy(userId)) {
        if (exact && !exact.has(d.imei)) continue;
        if (!match(d)) continue;
        if (followed && followed.has(d.imei) !== input.followed) continue;
        const state = this.directory.state(d.imei) ?? null;
        const status = deriveStatus(state, now, this.offlineMs);
        if (wanted && !wanted.has(status)) continue;
        if (input.online !== undefined && ONLINE.has(status) !== input.online) continue;
        rows.push({ d, state, status });
      }
    }
    return rows;
  }

  /**
   * Spec §3: the platform expiry is shown as a dash when showPlatformExpiration is 0. A
   * superior sets it for an account below it, and it holds for that account's whole subtree:
   * hidden when the caller's account or any account above it has it off. The platform
   * administrator always sees it.
   */
  async hidesPlatformExpiry(session: Session): Promise<boolean> {
    const { owner } = await this.access.caller(session);
    if (!owner.parentId) return false;
    const chain = [owner.id, ...owner.fullParentId.split(",").filter(Boolean)];
    return (await this.store.expiryHidden(chain)).size > 0;
  }

  /** One page of the device list with live state, owner account and follow mark. */
  async list(session: Session, input: z.infer<typeof listBody>) {
    const { pageNum, pageSize, sort, order, ...filter } = input;
    const rows = await this.select(session, filter);
    const hidden = await this.hidesPlatformExpiry(session);
    // A hidden platform expiry must not show through the order either.
    const key = hidden && sort === "expiration" ? "imei" : sort ?? "imei";
    const dir = order === "desc" ? -1 : 1;
    rows.sort((a, b) => dir * String(a.d[key] ?? "").localeCompare(String(b.d[key] ?? "")));
    const start = (pageNum - 1) * pageSize;
    return {
      total: rows.length,
      list: await this.present(session, rows.slice(start, start + pageSize)),
      showPlatformExpiration: hidden ? 0 : 1,
    };
  }

  /** Table rows for devices: state, status, activation state, owner account, group, follow. */
  async present(session: Session, rows: Row[]) {
    const now = Date.now();
    const followed = await this.store.followed(session.accountId);
    const hidden = await this.hidesPlatformExpiry(session);
    const names = new Map<string, string>();
    const groups = new Map<string, Map<string, string>>();
    const list = [];
    for (const { d, state, status } of rows) {
      if (!names.has(d.userId)) {
        names.set(d.userId, (await this.accounts.get(d.userId))?.account ?? "");
        groups.set(
          d.userId,
          new Map((await this.store.groups(d.userId)).map((g) => [g.id, g.name])),
        );
      }
      const p = state?.position ?? null;
      list.push({
        imei: d.imei,
        deviceName: d.deviceName,
        mcType: d.mcType,
        sim: d.sim,
        userId: d.userId,
        userAccount: names.get(d.userId),
        groupId: d.groupId && groups.get(d.userId)?.has(d.groupId) ? d.groupId : "0",
        groupName: (d.groupId && groups.get(d.userId)?.get(d.groupId)) || null,
        enabled: d.enabled,
        createdAt: d.createdAt,
        activationTime: d.activationTime,
        activationMode: d.activationMode ?? "auto",
        activation: activationState(d, now),
        saleTime: d.saleTime ?? null,
        expiration: hidden ? null : d.expiration,
        userExpiration: d.userExpiration,
        bindUserAccount: d.bindUserAccount ?? null,
        appBindable: d.appBindable !== false,
        autoRenew: !!d.autoRenew,
        followed: followed.has(d.imei),
        status,
        hbTime: state?.hbTime ? new Date(state.hbTime).toISOString() : null,
        gpsTime: state?.gpsTime ? new Date(state.gpsTime).toISOString() : null,
        acc: state?.acc ?? null,
        battery: state?.battery ?? null,
        signal: state?.signal ?? null,
        position: p && {
          lat: p.lat,
          lng: p.lng,
          speed: p.speed,
          course: p.course,
          altitude: p.altitude,
          posType: p.posType,
          satellites: p.satellites,
          mileage: p.mileage,
        },
      });
    }
    return list;
  }

  /** Every named device, refused as a whole when one is missing or outside the subtree. */
  async visibleDevices(session: Session, imeis: string[]): Promise<Device[]> {
    const { devices, refused } = await this.visibleOrRefused(session, imeis);
    const first = refused[0];
    if (first) throw new BizError(first.error, { imei: first.imei }, { imei: first.imei });
    return devices;
  }

  /**
   * Bulk actions that report per device: the visible devices, and a refusal for each IMEI
   * the caller cannot see (unknown or outside its subtree alike, so nothing is revealed).
   */
  async visibleOrRefused(
    session: Session,
    imeis: string[],
  ): Promise<{ devices: Device[]; refused: { imei: string; error: ErrorName }[] }> {
    const { owner } = await this.access.caller(session);
    const devices: Device[] = [];
    const refused: { imei: string; error: ErrorName }[] = [];
    const ok = new Map<string, boolean>();
    for (const imei of new Set(imeis)) {
      const d = this.directory.get(imei);
      let visible = !!d && ok.get(d.userId);
      if (d && visible === undefined) {
        const acc = await this.accounts.get(d.userId);
        visible = !!acc && this.access.isVisible(owner, acc);
        ok.set(d.userId, visible);
      }
      if (d && visible) devices.push(d);
      else refused.push({ imei, error: "deviceNoPermission" });
    }
    return { devices, refused };
  }

  /** Stores changed devices, then updates the in-memory directory (store first, spec'd order). */
  async save(
    changes: { before: Device; after: Device }[],
    log: AllocationEntry[] = [],
  ): Promise<void> {
    // Apply only what the caller changed onto the newest record, so a write that happened
    // since the caller read it (e.g. the gateway's activation) is not undone.
    const merged = changes.map(({ before, after }) => {
      const latest = this.directory.get(before.imei) ?? before;
      const changed = Object.entries(after).filter(([k, v]) => before[k as keyof Device] !== v);
      return { before: latest, after: { ...latest, ...Object.fromEntries(changed) } as Device };
    });
    await this.directory.saveMany(merged, log);
  }

  /** The IMEIs an account follows (the monitor marks them). */
  followed(accountId: string): Promise<Set<string>> {
    return this.store.followed(accountId);
  }

  /** An account's device groups (the monitor names them). */
  groups(userId: string): Promise<DeviceGroup[]> {
    return this.store.groups(userId);
  }

  allocations(limit: number): Promise<AllocationEntry[]> {
    return this.store.allocations(limit);
  }

  /** A device the caller may see; refused the same way whether missing or outside the subtree. */
  async visibleDevice(session: Session, imei: string): Promise<Device> {
    const d = this.directory.get(imei);
    if (!d) throw new BizError("deviceNoPermission");
    try {
      await this.access.visibleAccount(session, d.userId);
    } catch {
      throw new BizError("deviceNoPermission");
    }
    return d;
  }
}
