import { BizError } from "../../lib/errors.ts";
import type { Session } from "../../lib/http/env.ts";
import type { AccessGuard } from "../accounts/access.ts";
import type { AccountRecords } from "../accounts/model.ts";
import type { Device } from "./model.ts";
import type { DeviceService } from "./service.ts";
import type { AllocationEntry } from "./store.ts";
import type { Publisher } from "../../lib/events/bus.ts";
import type { DevicesTransferred } from "./events.ts";

/**
 * Sell / transfer devices to an account of the caller's subtree (spec §4, §5, §6): one
 * transfer task at a time platform-wide (the accounts area's transfer lock), never to the
 * caller itself, never across service nodes. Each moved device gets an allocation log entry,
 * leaves its old group (groups belong to accounts) and records its sale time.
 */
export class DeviceTransfer {
  constructor(
    private readonly accounts: AccountRecords,
    private readonly access: AccessGuard,
    private readonly devices: DeviceService,
    /** Told after devices moved to an account (the message center posts "device allocation"). */
    private readonly events: Publisher<DevicesTransferred>,
  ) {}

  async transfer(session: Session, imeis: string[], targetUserId: string) {
    await this.devices.assertCanEdit(session);
    const { owner } = await this.access.caller(session);
    const target = await this.access.visibleAccount(session, targetUserId);
    if (target.id === owner.id || target.id === session.accountId) {
      throw new BizError("transferToSelf");
    }
    if (target.virtual) throw new BizError("superiorInvalid");
    const devices = await this.devices.visibleDevices(session, imeis);
    if (!await this.accounts.acquireTransferLock(`devices:${session.accountId}`)) {
      throw new BizError("transferRunning");
    }
    try {
      return await this.move(session, devices, target.id, target.nodeId);
    } finally {
      await this.accounts.releaseTransferLock();
    }
  }

  private async move(session: Session, devices: Device[], targetId: string, nodeId: number) {
    const nodes = new Map<string, number>();
    for (const d of devices) {
      if (!nodes.has(d.userId)) {
        nodes.set(d.userId, (await this.accounts.get(d.userId))?.nodeId ?? 0);
      }
      if (nodes.get(d.userId) !== nodeId) throw new BizError("crossNodeRefused");
    }
    const time = new Date().toISOString();
    const changes = [];
    const log: AllocationEntry[] = [];
    let already = 0;
    for (const d of devices) {
      if (d.userId === targetId) {
        already++;
        continue;
      }
      changes.push({
        before: d,
        after: { ...d, userId: targetId, groupId: null, saleTime: time },
      });
      log.push({
        imei: d.imei,
        fromUserId: d.userId,
        toUserId: targetId,
        operatorId: session.accountId,
        time,
      });
    }
    if (!changes.length) throw new BizError("transferAlreadyUnderTarget");
    await this.devices.save(changes, log);
    await this.events.deliver({
      type: "devicesTransferred",
      targetId,
      devices: changes.map((c) => c.after),
      operatorId: session.accountId,
    });
    return { moved: changes.length, alreadyThere: already };
  }

  /** Allocation log entries that touch the caller's subtree, newest first. */
  async log(session: Session, imei: string | undefined, limit: number) {
    const { owner } = await this.access.caller(session);
    const names = new Map<string, { account: string; visible: boolean }>();
    const who = async (id: string) => {
      if (!names.has(id)) {
        const a = await this.accounts.get(id);
        names.set(id, {
          account: a?.account ?? "",
          visible: !!a && this.access.isVisible(owner, a),
        });
      }
      return names.get(id)!;
    };
    const out = [];
    for (const e of await this.devices.allocations(2000)) {
      if (imei && e.imei !== imei) continue;
      const to = await who(e.toUserId);
      if (!to.visible) continue;
      const from = await who(e.fromUserId);
      out.push({ ...e, toAccount: to.account, fromAccount: from.visible ? from.account : "" });
      if (out.length >= limit) break;
    }
    return out;
  }
}
