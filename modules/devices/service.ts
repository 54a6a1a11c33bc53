import type { z } from "zod";
import { BizError, CATALOGUE, type ErrorName } from "../../lib/errors.ts";
import type { Session } from "../../lib/http/env.ts";
import type { AccessGuard } from "../accounts/access.ts";
import type { AccountStore } from "../accounts/store.ts";
import type { DeviceDirectory } from "./directory.ts";
import { deriveStatus, type Device, type DeviceStatus, STATUS_FILTERS } from "./model.ts";
import { findModel } from "./models.ts";
import type { importBody, listBody } from "./schemas.ts";

export const MAX_IMPORT = 1000;

export interface ImportFailure {
  imei: string;
  code: number;
  reason: string;
}

/** The minimal device registry: import, list with live state, lookups with visibility checks. */
export class DeviceService {
  constructor(
    private readonly directory: DeviceDirectory,
    private readonly accounts: AccountStore,
    private readonly access: AccessGuard,
    private readonly offlineMs: number,
  ) {}

  /** Spec §6: editing devices needs updateDevFlag = 1, and updateFlag = 1 for virtual users. */
  async assertCanEdit(session: Session): Promise<void> {
    const { self, owner } = await this.access.caller(session);
    if (owner.permissions.updateDevFlag !== 1) throw new BizError("permissionDenied");
    if (self.virtual && self.virtual.scope.updateFlag !== 1) throw new BizError("permissionDenied");
  }

  async import(
    session: Session,
    input: z.infer<typeof importBody>,
    translate: (name: ErrorName, params?: Record<string, string>) => string,
  ): Promise<{ succeeded: number; failed: ImportFailure[] }> {
    await this.assertCanEdit(session);
    const owner = await this.access.visibleAccount(session, input.userId);
    if (owner.virtual) throw new BizError("superiorInvalid");
    if (!findModel(input.mcType)) throw new BizError("modelNotExists");
    const failed: ImportFailure[] = [];
    const fail = (imei: string, name: ErrorName) =>
      failed.push({ imei, code: CATALOGUE[name], reason: translate(name, { imei }) });
    const seen = new Set<string>();
    const fresh: Device[] = [];
    const now = new Date().toISOString();
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
          deviceName: imei.slice(-6),
          sim: "",
          enabled: true,
          createdAt: now,
          activationTime: null,
          expiration: null,
          userExpiration: null,
          timezoneOffsetMinutes: null,
        });
      }
    }
    const raced = await this.directory.store.insertMany(fresh);
    for (const d of fresh) {
      if (raced.has(d.imei)) fail(d.imei, "imeiExists");
      else this.directory.remember(d);
    }
    return { succeeded: fresh.length - raced.size, failed };
  }

  /** The devices of an account's subtree (or only its own), with their latest state. */
  async list(session: Session, input: z.infer<typeof listBody>) {
    const { owner } = await this.access.caller(session);
    const root = input.userId ? await this.access.visibleAccount(session, input.userId) : owner;
    const owners = [root.id];
    if (!input.ownOnly) {
      for await (const { id } of this.accounts.subtree(root.id)) {
        owners.push(id);
      }
    }
    const now = Date.now();
    const keyword = input.keyword?.toLowerCase();
    const wanted = input.status ? new Set<DeviceStatus>(STATUS_FILTERS[input.status]) : null;
    const rows = [];
    for (const userId of owners) {
      for (const d of this.directory.ownedBy(userId)) {
        if (input.mcType && d.mcType !== input.mcType) continue;
        if (keyword && !d.imei.includes(keyword) && !d.deviceName.toLowerCase().includes(keyword)) {
          continue;
        }
        const state = this.directory.state(d.imei) ?? null;
        const status = deriveStatus(state, now, this.offlineMs);
        if (wanted && !wanted.has(status)) continue;
        rows.push({ d, state, status });
      }
    }
    rows.sort((a, b) => a.d.imei.localeCompare(b.d.imei));
    const start = (input.pageNum - 1) * input.pageSize;
    const names = new Map<string, string>();
    const list = [];
    for (const { d, state, status } of rows.slice(start, start + input.pageSize)) {
      if (!names.has(d.userId)) {
        names.set(d.userId, (await this.accounts.get(d.userId))?.account ?? "");
      }
      const p = state?.position ?? null;
      list.push({
        imei: d.imei,
        deviceName: d.deviceName,
        mcType: d.mcType,
        userId: d.userId,
        userAccount: names.get(d.userId),
        enabled: d.enabled,
        activationTime: d.activationTime,
        expiration: d.expiration,
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
    return { total: rows.length, list };
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
