import type { Session } from "../../lib/http/env.ts";
import type { DeviceService } from "../devices/service.ts";
import { BizError } from "../../lib/errors.ts";
import { COMMON_ADDRESS_MAX, type CommonAddress } from "./model.ts";
import type { CommonAddressStore } from "./store.ts";

/**
 * A device's common addresses: read by whoever sees the device, replaced by whoever may
 * edit it (the route's editData need); a device outside the caller's subtree answers like
 * an unknown IMEI (DeviceService.visibleDevice).
 */
export class CommonAddresses {
  constructor(
    private readonly store: CommonAddressStore,
    private readonly devices: Pick<DeviceService, "visibleDevice">,
  ) {}

  async list(session: Session, imei: string): Promise<CommonAddress[]> {
    await this.devices.visibleDevice(session, imei);
    return await this.store.get(imei);
  }

  async save(session: Session, imei: string, list: CommonAddress[]): Promise<CommonAddress[]> {
    await this.devices.visibleDevice(session, imei);
    if (list.length > COMMON_ADDRESS_MAX) {
      throw new BizError("commonAddressLimit", { max: COMMON_ADDRESS_MAX });
    }
    await this.store.set(imei, list);
    return list;
  }
}
