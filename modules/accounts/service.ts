import type { z } from "zod";
import { BizError, type ErrorName } from "../../lib/errors.ts";
import type { Session } from "../../lib/http/env.ts";
import type { PasswordChecks } from "../auth/confirm.ts";
import { passwordHashes } from "../auth/password.ts";
import type { AccessGuard } from "./access.ts";
import {
  type Account,
  ACCOUNT_TYPES,
  ALL_PERMISSIONS,
  childPath,
  CREATABLE_TYPES,
  DEFAULT_UNITS,
  isDescendantOrSelf,
  type Permissions,
  type PublicAccount,
  toPublic,
} from "./model.ts";
import type * as S from "./schemas.ts";
import type { Publisher } from "../../lib/events/bus.ts";
import type { AccountCreated, AccountMoved } from "./events.ts";
import type { AccountStore } from "./store.ts";

type AddInput = z.infer<typeof S.addAccountBody>;
type UpdateInput = z.infer<typeof S.updateAccountBody>;
type ChildrenInput = z.infer<typeof S.childrenBody>;
type ProfileInput = z.infer<typeof S.updateProfileBody>;
type AddVirtualInput = z.infer<typeof S.addVirtualBody>;
type UpdateVirtualInput = z.infer<typeof S.updateVirtualBody>;

/** Other areas (devices, wallet) add reasons why an account cannot be deleted or moved. */
export type AccountGuard = (account: Account) => Promise<ErrorName | null>;

export interface Page<T> {
  total: number;
  list: T[];
}

/** What the accounts area is told by the areas built before it (see app/compose.ts). */
export interface AccountHooks {
  /** Ends an account's sessions (after its password changed or it was deleted). */
  sessions: { forceLogout(accountId: string): Promise<unknown> };
  /** Refusals other areas have to deleting an account (devices still bound, a balance…). */
  deletionGuards: AccountGuard[];
  /** Told after accounts moved (the message center posts "account move") or were created. */
  events: Publisher<AccountMoved | AccountCreated>;
}

export class AccountService {
  /** Refusals to deleting an account (from the constructor; tests add one for a case). */
  readonly deletionGuards: AccountGuard[];

  constructor(
    private readonly store: AccountStore,
    private readonly access: AccessGuard,
    private readonly passwordChecks: PasswordChecks,
    private readonly hooks: AccountHooks,
  ) {
    this.deletionGuards = [...hooks.deletionGuards];
  }

  private onSessionsInvalid(accountId: string): Promise<unknown> {
    return this.hooks.sessions.forceLogout(accountId);
  }

  // ---- creation ---------------------------------------------------------------------

  async add(session: Session, input: AddInput): Promise<{ id: string }> {
    const { self, owner } = await this.access.caller(session);
    // Account management is for real accounts (need manageAccounts, modules/accounts/needs.ts).
    if (self.virtual) throw new BizError("permissionDenied");
    const parent = await this.access.visibleAccount(session, input.parentId);
    if (parent.virtual) throw new BizError("superiorInvalid");
    if (parent.accountType === ACCOUNT_TYPES.endUser) throw new BizError("endUserCannotCreate");
    if (owner.accountType === ACCOUNT_TYPES.endUser) throw new BizError("endUserCannotCreate");
    this.assertTypeAllowed(owner, parent, input.accountType);
    const today = new Date().toISOString();
    if (input.expiration) this.checkActivation(input.expiration, today);
    const expiration = this.checkExpiry(
      parent,
      input.expiration === undefined ? parent.expiration : input.expiration,
    );
    await this.assertLoginFree(input.account);
    const now = new Date().toISOString();
    const account: Account = {
      id: await this.store.newId(),
      account: input.account,
      nickName: input.nickName,
      accountType: input.accountType as Account["accountType"],
      parentId: parent.id,
      fullParentId: childPath(parent),
      nodeId: input.nodeId ?? parent.nodeId,
      contact: input.contact ?? "",
      phone: input.phone ?? "",
      email: input.email ?? "",
      companyName: input.companyName ?? "",
      timeZones: input.timeZones ?? parent.timeZones,
      language: input.language ?? parent.language,
      country: input.country ?? "",
      description: input.description ?? "",
      googleMapKey: "",
      shareGoogleMapKey: 0,
      discount: input.discount ?? 1,
      expiration,
      coinNumber: 0,
      rechargeCards: 0,
      credits: 50,
      permissions: this.grantable(owner, { ...ALL_PERMISSIONS, ...input.permissions }),
      units: { ...DEFAULT_UNITS },
      userMapType: "OpenStreetMap",
      alarmSoundFlag: 0,
      ...await passwordHashes(input.password),
      virtual: null,
      createdAt: now,
      updatedAt: now,
      sessionVersion: 1,
    };
    if (!await this.store.insert(account)) {
      throw new BizError("accountExists", {}, { field: "account" });
    }
    await this.hooks.events.deliver({ type: "accountCreated", account });
    return { id: account.id };
  }

  /** Cheap early refusal before the password is hashed; the insert stays the real check. */
  private async assertLoginFree(login: string) {
    if (await this.store.findIdByLogin(login)) {
      throw new BizError("accountExists", {}, { field: "account" });
    }
  }

  /** A caller cannot create a type it may not create, nor place it under a parent that may not hold it. */
  private assertTypeAllowed(owner: Account, parent: Account, type: number) {
    const byOwner = CREATABLE_TYPES[owner.accountType] as number[];
    const byParent = CREATABLE_TYPES[parent.accountType] as number[];
    if (!byOwner.includes(type) || !byParent.includes(type)) {
      throw new BizError("accountTypeNotAllowed");
    }
  }

  private checkExpiry(parent: Account, expiration: string | null | undefined): string | null {
    const value = expiration ?? null;
    if (parent.expiration && (value === null || value > parent.expiration)) {
      throw new BizError("expiryAfterParent", { date: parent.expiration }, {
        field: "expiration",
      });
    }
    return value;
  }

  /** Spec §5: an expiry must not fall before the account's activation (its creation day). */
  private checkActivation(expiration: string, activatedAt: string) {
    const day = activatedAt.slice(0, 10);
    if (expiration < day) {
      throw new BizError(
        "illegalParameter",
        { field: "expiration", reasonKey: "validation.tooSmall", min: day },
        { field: "expiration" },
      );
    }
  }

  /** A caller cannot hand out a permission it does not hold itself (the administrator holds all). */
  private grantable(owner: Account, wanted: Permissions): Permissions {
    if (owner.accountType === ACCOUNT_TYPES.administrator) return wanted;
    return Object.fromEntries(
      Object.entries(wanted).map((
        [k, v],
      ) => [k, owner.permissions[k as keyof Permissions] === 1 ? v : 0]),
    ) as Permissions;
  }

  // ---- reading ----------------------------------------------------------------------

  async detail(session: Session, id: string): Promise<PublicAccount & { parentAccount: string }> {
    const a = await this.access.visibleAccount(session, id);
    const parent = a.parentId ? await this.store.get(a.parentId) : null;
    return { ...toPublic(a), parentAccount: parent?.account ?? "" };
  }

  /** Paged, searchable list of the subtree (or direct children) below parentId. */
  async children(session: Session, input: ChildrenInput): Promise<Page<AccountRow>> {
    const { owner } = await this.access.caller(session);
    const root = input.parentId ? await this.access.visibleAccount(session, input.parentId) : owner;
    const keyword = input.keyword?.toLowerCase();
    const ids: string[] = [];
    for await (const { id, summary } of this.store.subtree(root.id)) {
      if (input.directOnly && summary.parentId !== root.id) continue;
      if (input.accountType !== undefined && summary.accountType !== input.accountType) continue;
      if (
        keyword && !summary.account.toLowerCase().includes(keyword) &&
        !summary.nickName.toLowerCase().includes(keyword)
      ) continue;
      ids.push(id);
    }
    ids.sort((a, b) => Number(a) - Number(b));
    const start = (input.pageNum - 1) * input.pageSize;
    const page = await this.store.getMany(ids.slice(start, start + input.pageSize));
    return { total: ids.length, list: await this.rows(page) };
  }

  /** Direct children for a lazily opened tree node. */
  async tree(session: Session, parentId?: string): Promise<TreeNode[]> {
    const { owner } = await this.access.caller(session);
    const root = parentId ? await this.access.visibleAccount(session, parentId) : owner;
    const kids = await this.store.getMany(await this.store.childIds(root.id));
    const nodes = await Promise.all(kids.map(async (k) => ({
      id: k.id,
      account: k.account,
      nickName: k.nickName,
      accountType: k.accountType,
      parentId: k.parentId,
      hasChildren: await this.store.hasChildren(k.id),
    })));
    return nodes.sort((a, b) => a.nickName.localeCompare(b.nickName));
  }

  private async rows(accounts: Account[]): Promise<AccountRow[]> {
    const parentIds = [...new Set(accounts.map((a) => a.parentId).filter(Boolean))];
    const parents = new Map((await this.store.getMany(parentIds)).map((p) => [p.id, p]));
    return accounts.map((a) => ({
      id: a.id,
      account: a.account,
      nickName: a.nickName,
      accountType: a.accountType,
      parentId: a.parentId,
      parentAccount: parents.get(a.parentId)?.account ?? "",
      contact: a.contact,
      phone: a.phone,
      email: a.email,
      expiration: a.expiration,
      nodeId: a.nodeId,
      createdAt: a.createdAt,
    }));
  }

  // ---- changes ----------------------------------------------------------------------

  async update(session: Session, input: UpdateInput): Promise<void> {
    const { owner } = await this.assertCanModify(session);
    const target = await this.access.visibleAccount(session, input.id, { strictlyBelow: true });
    if (target.virtual) throw new BizError("permissionDenied");
    const parent = (await this.store.get(target.parentId))!;
    if (input.accountType !== undefined && input.accountType !== target.accountType) {
      if (target.accountType === ACCOUNT_TYPES.enterprise) {
        throw new BizError("enterpriseTypeLocked");
      }
      this.assertTypeAllowed(owner, parent, input.accountType);
      // The new type must still be able to hold every direct child (an end user holds none).
      const mayHold = CREATABLE_TYPES[input.accountType as Account["accountType"]] as number[];
      for (const child of await this.store.getMany(await this.store.childIds(target.id))) {
        if (!mayHold.includes(child.accountType)) throw new BizError("accountTypeNotAllowed");
      }
      target.accountType = input.accountType as Account["accountType"];
    }
    if (input.expiration !== undefined) {
      if (input.expiration) this.checkActivation(input.expiration, target.createdAt);
      target.expiration = this.checkExpiry(parent, input.expiration);
    }
    if (input.permissions) {
      target.permissions = this.grantable(
        owner,
        { ...target.permissions, ...input.permissions } as Permissions,
      );
    }
    const { id: _id, accountType: _t, expiration: _e, permissions: _p, ...plain } = input;
    for (const [k, v] of Object.entries(plain)) {
      if (v !== undefined) (target as unknown as Record<string, unknown>)[k] = v;
    }
    target.updatedAt = new Date().toISOString();
    await this.store.update(target);
  }

  async remove(session: Session, id: string): Promise<void> {
    await this.assertCanModify(session);
    const target = await this.access.visibleAccount(session, id, { strictlyBelow: true });
    if (target.virtual) return this.removeVirtual(session, id);
    if (await this.store.spansNodes(target.id, target.nodeId)) {
      throw new BizError("multiNodeAccount");
    }
    if (await this.store.hasChildren(target.id)) throw new BizError("subAccountsExist");
    if (target.coinNumber > 0) throw new BizError("miCoinsInBalance");
    if (target.rechargeCards > 0) throw new BizError("contactServiceProvider");
    for (const guard of this.deletionGuards) {
      const refusal = await guard(target);
      if (refusal) throw new BizError(refusal);
    }
    for (const vid of await this.store.virtualIds(target.id)) {
      const v = await this.store.get(vid);
      if (v) await this.store.remove(v);
      await this.onSessionsInvalid(vid);
    }
    await this.store.remove(target);
    await this.onSessionsInvalid(target.id);
  }

  /** Spec transfer errors 1-5, one transfer at a time, no cross-node moves. */
  async move(session: Session, ids: string[], targetId: string): Promise<void> {
    await this.assertCanModify(session);
    const { owner } = await this.access.caller(session);
    const target = await this.store.get(targetId);
    if (!target || target.virtual || !isDescendantOrSelf(target, owner.id)) {
      throw new BizError("transferNotUnderLoginAccount");
    }
    const moving: Account[] = [];
    for (const id of new Set(ids)) {
      const a = await this.store.get(id);
      if (!a || a.virtual || a.id === owner.id || !isDescendantOrSelf(a, owner.id)) {
        throw new BizError("transferNotUnderLoginAccount");
      }
      if (a.id === target.id) throw new BizError("transferToSelf");
      if (isDescendantOrSelf(target, a.id)) throw new BizError("transferParentToChild");
      if (a.parentId === target.id) throw new BizError("transferAlreadyUnderTarget");
      moving.push(a);
    }
    for (const a of moving) {
      if (moving.some((b) => b !== a && isDescendantOrSelf(a, b.id))) {
        throw new BizError("transferParentChildRelation");
      }
      if (target.accountType === ACCOUNT_TYPES.endUser) throw new BizError("endUserCannotCreate");
      if (!(CREATABLE_TYPES[target.accountType] as number[]).includes(a.accountType)) {
        throw new BizError("accountTypeNotAllowed");
      }
      if (await this.store.spansNodes(a.id, a.nodeId)) throw new BizError("multiNodeAccount");
      if (a.nodeId !== target.nodeId) throw new BizError("crossNodeRefused");
      if (target.expiration && (!a.expiration || a.expiration > target.expiration)) {
        throw new BizError("expiryAfterParent", { date: target.expiration });
      }
    }
    if (!await this.store.acquireTransferLock(`accounts:${session.accountId}`)) {
      throw new BizError("transferRunning");
    }
    try {
      for (const a of moving) await this.store.move(a, target);
    } finally {
      await this.store.releaseTransferLock();
    }
    for (const a of moving) {
      await this.hooks.events.deliver({ type: "accountMoved", account: a, target });
    }
  }

  async resetPassword(
    session: Session,
    id: string,
    password: string,
    confirm: string,
  ): Promise<void> {
    await this.assertCanModify(session);
    if (password !== confirm) {
      throw new BizError("passwordMismatch", {}, { field: "confirmPassword" });
    }
    // A virtual caller never gets here (assertCanModify): it cannot reset its own password
    // (spec §6) nor take over the other virtual accounts of its master.
    const target = await this.access.visibleAccount(session, id, { strictlyBelow: true });
    await this.setPassword(target, password);
  }

  async changePassword(
    session: Session,
    oldPassword: string,
    newPassword: string,
    confirm: string,
  ) {
    const { self } = await this.access.caller(session);
    if (self.virtual) throw new BizError("virtualCannotChangePassword");
    if (newPassword !== confirm) {
      throw new BizError("passwordMismatch", {}, { field: "confirmPassword" });
    }
    // Counted per account before the KDF: a stolen session cannot guess the password here.
    if (!await this.passwordChecks.verify(self, oldPassword)) {
      throw new BizError("wrongOldPassword");
    }
    await this.setPassword(self, newPassword);
  }

  /** The account a login names (account name or as findIdByLogin matches); null when none. */
  async byLogin(login: string): Promise<Account | null> {
    const id = await this.store.findIdByLogin(login);
    return id ? await this.store.get(id) : null;
  }

  /**
   * Sets a password proven by a mailed recovery code (notifications/recovery.ts checked the
   * code): the same change as a reset, sessions ended.
   */
  async recoverPassword(target: Account, password: string): Promise<void> {
    await this.setPassword(target, password);
  }

  private async setPassword(target: Account, password: string) {
    Object.assign(target, await passwordHashes(password));
    target.sessionVersion += 1;
    target.updatedAt = new Date().toISOString();
    await this.store.update(target);
    await this.onSessionsInvalid(target.id);
  }

  async updateProfile(session: Session, input: ProfileInput): Promise<void> {
    const { self } = await this.access.caller(session);
    const { showUnit, capacity, temperature, ...plain } = input;
    if (showUnit) {
      self.units.showUnit = showUnit;
      self.units.speed = showUnit === "mi" ? "mph" : showUnit === "nmi" ? "knot" : "km/h";
    }
    if (capacity) self.units.capacity = capacity;
    if (temperature) self.units.temperature = temperature;
    for (const [k, v] of Object.entries(plain)) {
      if (v !== undefined) (self as unknown as Record<string, unknown>)[k] = v;
    }
    self.updatedAt = new Date().toISOString();
    await this.store.update(self);
  }

  /**
   * Virtual users never manage accounts (their scope covers instructions, data and video
   * only: need manageAccounts); end users only themselves.
   */
  private async assertCanModify(session: Session) {
    const caller = await this.access.caller(session);
    if (caller.self.virtual) throw new BizError("permissionDenied");
    if (caller.owner.accountType === ACCOUNT_TYPES.endUser) {
      throw new BizError("endUserCannotCreate");
    }
    return caller;
  }

  // ---- virtual accounts ---------------------------------------------------------------

  async addVirtual(session: Session, input: AddVirtualInput): Promise<{ id: string }> {
    const { self, owner } = await this.access.caller(session);
    if (self.virtual) throw new BizError("permissionDenied");
    if (input.expiration) this.checkActivation(input.expiration, new Date().toISOString());
    const expiration = this.checkExpiry(
      owner,
      input.expiration === undefined ? owner.expiration : input.expiration,
    );
    await this.assertLoginFree(input.account);
    const now = new Date().toISOString();
    const account: Account = {
      ...owner,
      id: await this.store.newId(),
      account: input.account,
      nickName: input.nickName,
      ...await passwordHashes(input.password),
      virtual: { masterId: owner.id, scope: input.scope, expiration },
      expiration,
      coinNumber: 0,
      rechargeCards: 0,
      credits: 0,
      units: { ...owner.units },
      createdAt: now,
      updatedAt: now,
      sessionVersion: 1,
    };
    if (!await this.store.insert(account)) {
      throw new BizError("accountExists", {}, { field: "account" });
    }
    return { id: account.id };
  }

  async listVirtual(session: Session): Promise<VirtualRow[]> {
    const { owner } = await this.access.caller(session);
    const list = await this.store.getMany(await this.store.virtualIds(owner.id));
    return list.map((v) => ({
      id: v.id,
      account: v.account,
      nickName: v.nickName,
      scope: v.virtual!.scope,
      expiration: v.virtual!.expiration,
      masterId: owner.id,
      masterAccount: owner.account,
      createdAt: v.createdAt,
    }));
  }

  async updateVirtual(session: Session, input: UpdateVirtualInput): Promise<void> {
    const v = await this.ownVirtual(session, input.id);
    if (input.nickName) v.nickName = input.nickName;
    if (input.scope) v.virtual!.scope = input.scope;
    if (input.expiration !== undefined) {
      // Bounded by the virtual account's own master, which may sit below the caller.
      const master = await this.store.get(v.virtual!.masterId);
      if (!master) throw new BizError("permissionDenied");
      if (input.expiration) this.checkActivation(input.expiration, v.createdAt);
      v.virtual!.expiration = this.checkExpiry(master, input.expiration);
      v.expiration = v.virtual!.expiration;
    }
    v.updatedAt = new Date().toISOString();
    await this.store.update(v);
  }

  async removeVirtual(session: Session, id: string): Promise<void> {
    const v = await this.ownVirtual(session, id);
    await this.store.remove(v);
    await this.onSessionsInvalid(v.id);
  }

  private async ownVirtual(session: Session, id: string): Promise<Account> {
    const { self } = await this.access.caller(session);
    if (self.virtual) throw new BizError("permissionDenied");
    const v = await this.access.visibleAccount(session, id);
    if (!v.virtual) throw new BizError("permissionDenied");
    return v;
  }
}

export interface AccountRow {
  id: string;
  account: string;
  nickName: string;
  accountType: number;
  parentId: string;
  parentAccount: string;
  contact: string;
  phone: string;
  email: string;
  expiration: string | null;
  nodeId: number;
  createdAt: string;
}

export interface TreeNode {
  id: string;
  account: string;
  nickName: string;
  accountType: number;
  parentId: string;
  hasChildren: boolean;
}

export interface VirtualRow {
  id: string;
  account: string;
  nickName: string;
  scope: { instructionsFlag: 0 | 1; updateFlag: 0 | 1; videoFlag: 0 | 1 };
  expiration: string | null;
  masterId: string;
  masterAccount: string;
  createdAt: string;
}
