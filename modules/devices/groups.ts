import { BizError } from "../../lib/errors.ts";
import type { Session } from "../../lib/http/env.ts";
import type { AccessGuard } from "../accounts/access.ts";
import type { DeviceDirectory } from "./directory.ts";
import type { DeviceService } from "./service.ts";
import type { DeviceGroup, DeviceStore } from "./store.ts";
import type { BulkOutcome, Device } from "./model.ts";
import { bulkOutcome } from "./bulk.ts";

/** The default group of every account: not stored, cannot be renamed or deleted. */
export const DEFAULT_GROUP = "0";

/**
 * Device groups (spec §5): per account, name 1-20 characters and unique (case-insensitive,
 * the default group's name included), the default group is fixed, a group with devices
 * cannot be deleted, and a group only holds devices of its own account.
 */
export class GroupService {
  constructor(
    private readonly directory: DeviceDirectory,
    private readonly store: DeviceStore,
    private readonly access: AccessGuard,
    private readonly devices: DeviceService,
  ) {}

  /** The account's groups with device counts: default first, then pinned, then by name. */
  async list(session: Session, userId: string) {
    const owner = await this.access.visibleAccount(session, userId);
    const groups = await this.store.groups(owner.id);
    const counts = new Map<string, number>();
    const ids = new Set(groups.map((g) => g.id));
    for (const d of this.directory.ownedBy(owner.id)) {
      const g = d.groupId && ids.has(d.groupId) ? d.groupId : DEFAULT_GROUP;
      counts.set(g, (counts.get(g) ?? 0) + 1);
    }
    groups.sort((a, b) =>
      (b.topAt ?? "").localeCompare(a.topAt ?? "") || a.name.localeCompare(b.name)
    );
    return [
      { id: DEFAULT_GROUP, name: null, isDefault: true, top: false, count: counts.get("0") ?? 0 },
      ...groups.map((g) => ({
        id: g.id,
        name: g.name,
        isDefault: false,
        top: !!g.topAt,
        count: counts.get(g.id) ?? 0,
      })),
    ];
  }

  async add(session: Session, userId: string, name: string): Promise<DeviceGroup> {
    await this.devices.assertCanEdit(session);
    const owner = await this.access.visibleAccount(session, userId);
    if (owner.virtual) throw new BizError("superiorInvalid");
    await this.assertNameFree(owner.id, name, null);
    const g: DeviceGroup = {
      id: await this.store.newGroupId(),
      userId: owner.id,
      name,
      topAt: null,
      createdAt: new Date().toISOString(),
    };
    await this.store.saveGroup(g);
    return g;
  }

  async rename(session: Session, userId: string, groupId: string, name: string) {
    const g = await this.editable(session, userId, groupId);
    await this.assertNameFree(g.userId, name, g.id);
    await this.store.saveGroup({ ...g, name });
  }

  async remove(session: Session, userId: string, groupId: string) {
    const g = await this.editable(session, userId, groupId);
    if (this.directory.ownedBy(g.userId).some((d) => d.groupId === g.id)) {
      throw new BizError("groupHasDevices");
    }
    await this.store.deleteGroup(g);
  }

  /** Pins a group on top of the account's list (pinning again unpins). */
  async top(session: Session, userId: string, groupId: string) {
    const g = await this.editable(session, userId, groupId);
    await this.store.saveGroup({
      ...g,
      topAt: g.topAt ? null : new Date().toISOString(),
    });
  }

  /** Moves devices into a group of their own account; all of them must belong to it. */
  /**
   * Moves devices into a group, reporting per device. The default group ("0") is each
   * device's own account's; another group belongs to one account, and only that account's
   * devices move into it (the others are refused with groupAccountMismatch). `userId`, when
   * given, names the account the group must belong to.
   */
  async assign(
    session: Session,
    imeis: string[],
    groupId: string,
    userId?: string,
  ): Promise<BulkOutcome> {
    await this.devices.assertCanEdit(session);
    const { devices, refused } = await this.devices.visibleOrRefused(session, imeis);
    const owners = userId ? [userId] : [...new Set(devices.map((d) => d.userId))];
    const ownerId = groupId === DEFAULT_GROUP ? null : await this.groupOwner(owners, groupId);
    const account = ownerId ?? userId;
    const moving: Device[] = [];
    for (const d of devices) {
      if (account && d.userId !== account) {
        refused.push({ imei: d.imei, error: "groupAccountMismatch" });
      } else moving.push(d);
    }
    const target = groupId === DEFAULT_GROUP ? null : groupId;
    await this.devices.save(moving.map((d) => ({ before: d, after: { ...d, groupId: target } })));
    return bulkOutcome(imeis, moving, refused);
  }

  /** The account (among the devices' owners) that has the group; none: groupNotExists. */
  private async groupOwner(owners: string[], groupId: string): Promise<string> {
    for (const id of owners) {
      if (await this.store.getGroup(id, groupId)) return id;
    }
    // A group id of another account names a group these devices cannot share.
    throw new BizError("groupNotExists");
  }

  private async editable(session: Session, userId: string, groupId: string): Promise<DeviceGroup> {
    await this.devices.assertCanEdit(session);
    const owner = await this.access.visibleAccount(session, userId);
    if (groupId === DEFAULT_GROUP) throw new BizError("deviceDefaultGroupLocked");
    const g = await this.store.getGroup(owner.id, groupId);
    if (!g) throw new BizError("groupNotExists");
    return g;
  }

  private async assertNameFree(userId: string, name: string, except: string | null) {
    const lower = name.toLowerCase();
    const taken = (await this.store.groups(userId)).some((g) =>
      g.id !== except && g.name.toLowerCase() === lower
    );
    if (taken || DEFAULT_NAMES.has(lower)) throw new BizError("groupNameExists");
  }
}

/** The default group's shown names (en/zh); another group cannot take them. */
const DEFAULT_NAMES = new Set(["default", "default group", "默认分组"]);
