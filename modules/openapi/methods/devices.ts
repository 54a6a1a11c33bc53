/**
 * Device methods: the list of an account's devices, one device's detail, editing its names,
 * moving devices to another account of the subtree and setting their user expiry.
 */
import { z } from "zod";
import { BizError } from "../../../lib/errors.ts";
import type { Session } from "../../../lib/http/env.ts";
import type { Customer } from "../../devices/detail.ts";
import type { Device } from "../../devices/model.ts";
import { OPEN_CODES, OpenApiError, type OpenMethod } from "../types.ts";
import {
  formatIso,
  imeiList,
  imeiParam,
  ownDevices,
  parseOpenTime,
  targetAccount,
} from "./common.ts";
import type { OpenMethodDeps } from "./deps.ts";

type Deps = Pick<
  OpenMethodDeps,
  "access" | "accounts" | "directory" | "devices" | "deviceOps" | "deviceTransfer"
>;

/** A device as jimi.user.device.list and jimi.track.device.detail give it. */
function deviceFields(
  d: Device,
  customer: Customer | null,
  group: string | null,
  hideExpiry: boolean,
) {
  return {
    imei: d.imei,
    deviceName: d.deviceName,
    mcType: d.mcType,
    mcTypeUseScope: d.applicationType ?? "automobile",
    sim: d.sim,
    expiration: hideExpiry ? "" : formatIso(d.expiration),
    userExpiration: formatIso(d.userExpiration),
    activationTime: formatIso(d.activationTime),
    reMark: d.reMark ?? "",
    vehicleName: customer?.vehicleNumber || d.deviceName,
    vehicleIcon: d.applicationType ?? "car",
    vehicleNumber: customer?.vehicleNumber ?? "",
    vehicleModels: customer?.vehicleModels ?? "",
    carFrame: customer?.carFrame ?? "",
    driverName: customer?.driverName ?? "",
    driverPhone: customer?.driverPhone ?? "",
    engineNumber: customer?.engineNumber ?? "",
    enabledFlag: d.enabled ? 1 : 0,
    deviceGroupId: d.groupId ?? "0",
    deviceGroup: group ?? "",
  };
}

async function listDevices(d: Deps, session: Session, target: string | undefined) {
  const account = await targetAccount(d, session, target);
  const hide = await d.devices.hidesPlatformExpiry(session);
  const groups = new Map((await d.devices.groups(account.id)).map((g) => [g.id, g.name]));
  const out = [];
  for (const dev of d.directory.ownedBy(account.id)) {
    const detail = await d.deviceOps.loadDetail(dev.imei);
    out.push(deviceFields(dev, detail.customer, groups.get(dev.groupId ?? "") ?? null, hide));
  }
  return out.sort((a, b) => a.imei.localeCompare(b.imei));
}

/** Business refusals of the device services, in the public codes. */
async function asOpen<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    if (e instanceof BizError && e.key === "deviceNoPermission") {
      throw new OpenApiError(OPEN_CODES.illegalUserOrDevice, "illegal device");
    }
    if (e instanceof BizError && e.key === "permissionDenied") {
      throw new OpenApiError(OPEN_CODES.illegalUserOrDevice, "illegal user");
    }
    throw e;
  }
}

const text = (max: number) => z.string().trim().max(max).optional();

export function deviceMethods(d: Deps): OpenMethod[] {
  const list: OpenMethod<z.ZodObject<{ target: z.ZodOptional<z.ZodString> }>> = {
    name: "jimi.user.device.list",
    need: "read",
    params: z.object({ target: z.string().trim().max(50).optional() }).strict(),
    run: async ({ session, params }) => ({ result: await listDevices(d, session, params.target) }),
  };
  const detailParams = z.object({ imei: imeiParam }).strict();
  const detail: OpenMethod<typeof detailParams> = {
    name: "jimi.track.device.detail",
    need: "read",
    params: detailParams,
    run: async ({ session, params }) => {
      const [dev] = await ownDevices(d.devices, session, [params.imei]);
      const info = await d.deviceOps.loadDetail(dev.imei);
      const owner = await d.accounts.get(dev.userId);
      const group = (await d.devices.groups(dev.userId)).find((g) => g.id === dev.groupId);
      const hide = await d.devices.hidesPlatformExpiry(session);
      return {
        result: {
          ...deviceFields(dev, info.customer, group?.name ?? null, hide),
          iccid: dev.iccid ?? "",
          imsi: dev.imsi ?? "",
          account: owner?.account ?? "",
          customerName: owner?.companyName || owner?.nickName || "",
        },
      };
    },
  };
  const updateParams = z.object({
    imei: imeiParam,
    device_name: z.string().trim().min(1).max(50).optional(),
    sim: z.string().trim().max(20).regex(/^[0-9+]*$/, "sim: digits").optional(),
    remark: text(500),
    vehicle_number: text(50),
    vehicle_models: text(50),
    car_frame: text(50),
    driver_name: text(20),
    driver_phone: z.string().trim().max(20).regex(/^[0-9+\- ]*$/, "driver_phone").optional(),
    engine_number: text(50),
  }).strict();
  const update: OpenMethod<typeof updateParams> = {
    name: "jimi.open.device.update",
    need: "editData",
    params: updateParams,
    run: async ({ session, params: p }) => {
      const [dev] = await ownDevices(d.devices, session, [p.imei]);
      const current = await d.deviceOps.detail(session, dev.imei);
      const b = current.basic;
      await d.deviceOps.updateBasic(session, {
        imei: dev.imei,
        deviceName: p.device_name ?? b.deviceName,
        sim: p.sim ?? b.sim,
        iccid: b.iccid,
        imsi: b.imsi,
        sn: b.sn,
        macAddress: b.macAddress,
        reMark: p.remark ?? b.reMark,
        applicationType: b.applicationType as Parameters<
          typeof d.deviceOps.updateBasic
        >[1]["applicationType"],
      });
      const c = current.customer;
      const customer = {
        ...c,
        vehicleNumber: p.vehicle_number ?? c.vehicleNumber,
        vehicleModels: p.vehicle_models ?? c.vehicleModels,
        carFrame: p.car_frame ?? c.carFrame,
        driverName: p.driver_name ?? c.driverName,
        driverPhone: p.driver_phone ?? c.driverPhone,
        engineNumber: p.engine_number ?? c.engineNumber,
      };
      if (JSON.stringify(customer) !== JSON.stringify(c)) {
        // The API's client saw no VIN warning to confirm; a VIN it sends is its own choice.
        await d.deviceOps.updateCustomer(session, { imei: dev.imei, customer, confirmVin: true });
      }
      return { result: null };
    },
  };
  const moveParams = z.object({ imeis: imeiList(1000), target: z.string().trim().min(1).max(50) })
    .strict();
  const move: OpenMethod<typeof moveParams> = {
    name: "jimi.open.device.move",
    need: "editData",
    params: moveParams,
    run: async ({ session, params }) => {
      await ownDevices(d.devices, session, params.imeis);
      const target = await targetAccount(d, session, params.target);
      await asOpen(() => d.deviceTransfer.transfer(session, params.imeis, target.id));
      return { result: null };
    },
  };
  const expiryParams = z.object({
    imeis: imeiList(1000),
    user_expiration: z.string().refine((s) => !Number.isNaN(parseOpenTime(s)), {
      message: "yyyy-MM-dd HH:mm:ss (UTC)",
    }),
  }).strict();
  const expiry: OpenMethod<typeof expiryParams> = {
    name: "jimi.user.device.expiration.update",
    need: "editData",
    params: expiryParams,
    run: async ({ session, params }) => {
      await ownDevices(d.devices, session, params.imeis);
      // User expiry is a date: the day of the given time.
      await d.deviceOps.setUserExpiry(session, params.imeis, params.user_expiration.slice(0, 10));
      return { result: null };
    },
  };
  return [list, detail, update, move, expiry];
}
