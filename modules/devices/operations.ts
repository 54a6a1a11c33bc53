import type { z } from "zod";
import { BizError } from "../../lib/errors.ts";
import type { Session } from "../../lib/http/env.ts";
import type { AccessGuard } from "../accounts/access.ts";
import type { AccountLookup } from "../accounts/model.ts";
import {
  checkAlerts,
  checkCustomer,
  checkSensors,
  type DeviceDetail,
  emptyDetail,
} from "./detail.ts";
import type { DeviceDirectory } from "./directory.ts";
import type { DeviceStore } from "./store.ts";
import { activationState, type BulkOutcome, type Device } from "./model.ts";
import { bulkOutcome } from "./bulk.ts";
import { DEVICE_MODELS, findModel } from "./models.ts";
import type { alertsBody, basicBody, customerBody, sensorsBody, statsBody } from "./schemas.ts";
import { type DeviceService, ONLINE } from "./service.ts";
import type { ConnectionRegistry } from "../gateway/link/connections.ts";

/** Spec §5: the platform term is at most ten years. */
export const MAX_PLATFORM_YEARS = 10;

/**
 * Single-device and batch operations of the device page: details (four tabs), enable,
 * allow activation, follow, expiry, app binding, statistics, global search and model aliases.
 * Every change needs edit permission and every device must lie in the caller's subtree.
 */
export class DeviceOperations {
  constructor(
    private readonly directory: DeviceDirectory,
    private readonly store: DeviceStore,
    private readonly accounts: AccountLookup,
    private readonly access: AccessGuard,
    private readonly devices: DeviceService,
    /** Live gateway connections: a disabled device is cut off at once, on any instance. */
    private readonly connections?: Pick<ConnectionRegistry, "closeAnywhere">,
  ) {}

  async detail(session: Session, imei: string) {
    const d = await this.devices.visibleDevice(session, imei);
    const detail = await this.loadDetail(imei);
    const owner = await this.accounts.get(d.userId);
    const aliases = await this.store.modelAliases(session.accountId);
    const model = findModel(d.mcType);
    const hidden = await this.devices.hidesPlatformExpiry(session);
    return {
      basic: {
        imei: d.imei,
        deviceName: d.deviceName,
        mcType: d.mcType,
        mcTypeAlias: aliases[d.mcType] ?? null,
        sim: d.sim,
        iccid: d.iccid ?? "",
        imsi: d.imsi ?? "",
        sn: d.sn ?? "",
        macAddress: d.macAddress ?? "",
        reMark: d.reMark ?? "",
        applicationType: d.applicationType ?? model?.applicationType ?? "car",
        userId: d.userId,
        userAccount: owner?.account ?? "",
        enabled: d.enabled,
        createdAt: d.createdAt,
        activationTime: d.activationTime,
        activationMode: d.activationMode ?? "auto",
        activation: activationState(d, Date.now()),
        saleTime: d.saleTime ?? null,
        expiration: hidden ? null : d.expiration,
        showPlatformExpiration: hidden ? 0 : 1,
        userExpiration: d.userExpiration,
        bindUserAccount: d.bindUserAccount ?? null,
        appBindable: d.appBindable !== false,
        autoRenew: d.autoRenew ? { term: d.autoRenew.term, payWith: d.autoRenew.payWith } : null,
        installImages: d.installImages ?? [],
        ringtone: d.ringtone ?? null,
        supportsRingtone: model?.ringtone ?? false,
      },
      customer: detail.customer,
      alerts: detail.alerts,
      sensors: detail.sensors,
    };
  }

  async updateBasic(session: Session, input: z.infer<typeof basicBody>) {
    const d = await this.editable(session, input.imei);
    const { imei: _i, ...fields } = input;
    await this.devices.save([{ before: d, after: { ...d, ...fields } }]);
  }

  async updateCustomer(session: Session, input: z.infer<typeof customerBody>) {
    const d = await this.editable(session, input.imei);
    checkCustomer(input.customer, input.confirmVin ?? false);
    const detail = await this.loadDetail(d.imei);
    const customer = { ...input.customer, carFrame: input.customer.carFrame.toUpperCase() };
    if (d.bindUserAccount) fillAppIds(customer);
    await this.store.setDetail(d.imei, { ...detail, customer });
  }

  async updateAlerts(session: Session, input: z.infer<typeof alertsBody>) {
    const d = await this.editable(session, input.imei);
    checkAlerts(input.alerts);
    const detail = await this.loadDetail(d.imei);
    await this.store.setDetail(d.imei, { ...detail, alerts: input.alerts });
  }

  async updateSensors(session: Session, input: z.infer<typeof sensorsBody>) {
    const d = await this.editable(session, input.imei);
    const sensors = checkSensors(input.sensors);
    const detail = await this.loadDetail(d.imei);
    await this.store.setDetail(d.imei, { ...detail, sensors });
    return sensors;
  }

  /**
   * Enables or disables each device the caller may edit; the answer says per device whether
   * it was changed or why not (an IMEI outside the caller's subtree does not stop the rest).
   * Disabling also closes a live connection, wherever it is (cluster mode: on the instance
   * holding it); the gateway refuses its next login.
   */
  async setEnabled(session: Session, imeis: string[], enabled: boolean): Promise<BulkOutcome> {
    await this.devices.assertCanEdit(session);
    const { devices, refused } = await this.devices.visibleOrRefused(session, imeis);
    await this.devices.save(devices.map((d) => ({ before: d, after: { ...d, enabled } })));
    if (!enabled && this.connections) {
      const connections = this.connections;
      await Promise.all(devices.map((d) => connections.closeAnywhere(d.imei)));
    }
    return bulkOutcome(imeis, devices, refused);
  }

  /** Lets devices imported "awaiting permission" be activated by their next data. */
  async allowActivation(session: Session, imeis: string[]) {
    const devices = await this.editableMany(session, imeis);
    const now = Date.now();
    const waiting = devices.find((d) => activationState(d, now) !== "awaitingPermission");
    if (waiting) throw new BizError("activationNotAwaiting", { imei: waiting.imei });
    await this.devices.save(
      devices.map((d) => ({ before: d, after: { ...d, activationAllowed: true } })),
    );
  }

  /** Follow marks are per logged-in user (a virtual user has its own). */
  async follow(session: Session, imeis: string[], on: boolean) {
    await this.devices.visibleDevices(session, imeis);
    await this.store.setFollow(session.accountId, imeis, on);
  }

  /**
   * Spec §5 user expiry: only for activated devices that are not the caller's own stock,
   * after the activation, and not beyond the superior's expiry (the device's platform expiry
   * and the expiry of the account that sets it).
   */
  async setUserExpiry(session: Session, imeis: string[], date: string) {
    const devices = await this.editableMany(session, imeis);
    const { owner } = await this.access.caller(session);
    const end = `${date}T23:59:59.999Z`;
    for (const d of devices) {
      if (!d.activationTime) throw new BizError("expiryInactiveDevice", { imei: d.imei });
      if (d.userId === owner.id) throw new BizError("expiryOwnStock", { imei: d.imei });
      if (end <= d.activationTime) throw new BizError("expiryBeforeActivation");
      if (d.expiration && date > d.expiration.slice(0, 10)) {
        throw new BizError("expiryBeyondSuperior");
      }
      if (owner.expiration && date > owner.expiration) throw new BizError("expiryBeyondSuperior");
    }
    await this.devices.save(
      devices.map((d) => ({ before: d, after: { ...d, userExpiration: date } })),
    );
  }

  /** Platform expiry: set by the administrator, at most ten years from today. */
  async setPlatformExpiry(session: Session, imeis: string[], date: string) {
    const { self, owner } = await this.access.caller(session);
    if (owner.accountType !== 0 || self.virtual) throw new BizError("permissionDenied");
    const devices = await this.editableMany(session, imeis);
    const max = new Date();
    max.setUTCFullYear(max.getUTCFullYear() + MAX_PLATFORM_YEARS);
    if (date > max.toISOString().slice(0, 10)) throw new BizError("platformTermTooLong");
    if (date < new Date().toISOString().slice(0, 10)) {
      throw new BizError("illegalParameter", {
        field: "expiration",
        reasonKey: "validation.invalid",
      }, { field: "expiration" });
    }
    await this.devices.save(devices.map((d) => ({ before: d, after: { ...d, expiration: date } })));
  }

  /**
   * Binds an app account (needs bindAppFlag): the device shows in that account's app.
   * Missing driver and vehicle ids get generated APP- ids (spec §3).
   */
  async bindApp(session: Session, imei: string, appAccount: string) {
    const d = await this.editable(session, imei);
    const { owner } = await this.access.caller(session);
    if (owner.permissions.bindAppFlag !== 1) throw new BizError("permissionDenied");
    if (d.appBindable === false) throw new BizError("appBindNotAllowed", { imei }, { imei });
    const id = await this.accounts.findIdByLogin(appAccount);
    const target = id && await this.accounts.get(id);
    if (!target || target.virtual || !this.access.isVisible(owner, target)) {
      throw new BizError("appAccountInvalid");
    }
    const detail = await this.loadDetail(d.imei);
    fillAppIds(detail.customer);
    await this.store.setDetail(d.imei, detail);
    await this.devices.save([{ before: d, after: { ...d, bindUserAccount: target.account } }]);
  }

  /** Allows or forbids binding by app accounts (an existing binding stays until unbound). */
  async setAppBindable(session: Session, imeis: string[], bindable: boolean) {
    const devices = await this.editableMany(session, imeis);
    await this.devices.save(
      devices.map((d) => ({ before: d, after: { ...d, appBindable: bindable } })),
    );
  }

  /**
   * Whether an account below the caller sees the platform expiry: its own setting and
   * whether an account above it (below the caller) already hides it.
   */
  async showPlatformExpiry(session: Session, userId: string) {
    const target = await this.access.visibleAccount(session, userId);
    const chain = target.fullParentId.split(",").filter(Boolean);
    const hidden = await this.store.expiryHidden([target.id, ...chain]);
    return {
      show: hidden.has(target.id) ? 0 : 1,
      inheritedHidden: chain.some((id) => hidden.has(id)),
      editable: target.id !== (await this.access.caller(session)).owner.id,
    };
  }

  async setShowPlatformExpiry(session: Session, userId: string, show: 0 | 1) {
    await this.devices.assertCanEdit(session);
    const target = await this.access.visibleAccount(session, userId, { strictlyBelow: true });
    if (target.virtual) throw new BizError("superiorInvalid");
    await this.store.setExpiryHidden(target.id, show === 0);
  }

  async unbindApp(session: Session, imei: string) {
    const d = await this.editable(session, imei);
    await this.devices.save([{ before: d, after: { ...d, bindUserAccount: null } }]);
  }

  /** Counts for the page header: online states, activation states, enabled, followed. */
  async statistics(session: Session, input: z.infer<typeof statsBody>) {
    const rows = await this.devices.select(session, { userId: input.userId });
    const followed = await this.store.followed(session.accountId);
    const now = Date.now();
    const out = {
      total: rows.length,
      online: 0,
      offline: 0,
      moving: 0,
      idling: 0,
      stopped: 0,
      inactive: 0,
      notActivated: 0,
      awaitingPermission: 0,
      activated: 0,
      expiring: 0,
      expired: 0,
      disabled: 0,
      bound: 0,
      followed: 0,
    };
    for (const { d, status } of rows) {
      if (ONLINE.has(status)) out.online++;
      if (status === "moving") out.moving++;
      else if (status === "idling") out.idling++;
      else if (status === "stopped") out.stopped++;
      else if (status === "inactive") out.inactive++;
      else out.offline++;
      out[activationState(d, now)]++;
      if (!d.enabled) out.disabled++;
      if (d.bindUserAccount) out.bound++;
      if (followed.has(d.imei)) out.followed++;
    }
    return out;
  }

  /** Global search over the caller's whole subtree: IMEI digits (5-15) or device name. */
  async search(session: Session, keyword: string, limit = 20) {
    const rows = await this.devices.select(session, { keyword });
    rows.sort((a, b) => a.d.imei.localeCompare(b.d.imei));
    const list = await this.devices.present(session, rows.slice(0, limit));
    return { total: rows.length, list };
  }

  async modelAliases(session: Session) {
    const aliases = await this.store.modelAliases(session.accountId);
    return DEVICE_MODELS.map((m) => ({ ...m, alias: aliases[m.mcType] ?? "" }));
  }

  /** Per-user display names of models; an empty alias removes it. */
  async setModelAliases(session: Session, aliases: Record<string, string>) {
    const next = await this.store.modelAliases(session.accountId);
    for (const [mcType, alias] of Object.entries(aliases)) {
      if (!findModel(mcType)) throw new BizError("modelNotExists");
      if (alias) next[mcType] = alias;
      else delete next[mcType];
    }
    await this.store.setModelAliases(session.accountId, next);
  }

  /** Stores the customer tab of a device already checked by the caller. */
  async saveCustomer(imei: string, customer: DeviceDetail["customer"]) {
    const detail = await this.loadDetail(imei);
    await this.store.setDetail(imei, { ...detail, customer });
  }

  async loadDetail(imei: string): Promise<DeviceDetail> {
    return { ...emptyDetail(), ...await this.store.getDetail<DeviceDetail>(imei) };
  }

  private async editable(session: Session, imei: string): Promise<Device> {
    await this.devices.assertCanEdit(session);
    return await this.devices.visibleDevice(session, imei);
  }

  private async editableMany(session: Session, imeis: string[]): Promise<Device[]> {
    await this.devices.assertCanEdit(session);
    return await this.devices.visibleDevices(session, imeis);
  }
}

/** Spec §3: an app-bound device without driver or vehicle id gets an APP- id. */
function fillAppIds(c: DeviceDetail["customer"]) {
  const gen = () => `APP-${crypto.randomUUID().replace(/-/g, "").slice(0, 12).toUpperCase()}`;
  if (!c.driverId) c.driverId = gen();
  if (!c.vehicleId) c.vehicleId = gen();
}
