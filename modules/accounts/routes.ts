import { z } from "zod";
import type { ApiRegistry } from "../../lib/http/api.ts";
import * as S from "./schemas.ts";
import type { AlertSettingsStore } from "../alerts/settings.ts";
import type { AuthService } from "../auth/service.ts";
import type { AccessGuard } from "./access.ts";
import type { AccountService } from "./service.ts";
import { ForcedLogout } from "./forced_logout.ts";
import { OwnProfile } from "./own_profile.ts";

/** The services these routes use (the composition root passes them). */
export interface AccountRouteDeps {
  access: AccessGuard;
  accounts: AccountService;
  alertSettings: AlertSettingsStore;
  auth: AuthService;
}

export function registerAccountRoutes(api: ApiRegistry, s: AccountRouteDeps) {
  registerAccountChangeRoutes(api, s);
  registerOwnAccountRoutes(api, s);
  registerAccountQueryRoutes(api, s);
  registerAccountSessionRoutes(api, s);
  registerVirtualAccountRoutes(api, s);
}

/** Create, edit, delete and move sub-accounts and reset their passwords. */
function registerAccountChangeRoutes(api: ApiRegistry, s: AccountRouteDeps) {
  const tag = "Accounts";
  const svc = s.accounts;
  api.add({
    method: "post",
    path: "/v3/new/account/add",
    need: "manageAccounts",
    tag,
    summary: "Create a sub-account under parentId (in the caller's subtree)",
    body: S.addAccountBody,
    handler: ({ body, c }) => svc.add(c.var.session, body),
  });
  api.add({
    method: "post",
    path: "/v3/new/account/update",
    need: "manageAccounts",
    tag,
    summary: "Edit a sub-account (fields, type, expiry, permission flags)",
    body: S.updateAccountBody,
    handler: ({ body, c }) => svc.update(c.var.session, body),
  });
  api.add({
    method: "post",
    path: "/v3/new/account/delete",
    need: "manageAccounts",
    tag,
    summary: "Delete a sub-account (refused with 20004/20005/20010/20225 while it holds anything)",
    body: S.idBody,
    handler: ({ body, c }) => svc.remove(c.var.session, body.id),
  });
  api.add({
    method: "post",
    path: "/v3/new/account/move",
    need: "manageAccounts",
    tag,
    summary: "Move accounts (with their subtrees) under a target in the caller's subtree",
    body: S.moveBody,
    handler: ({ body, c }) => svc.move(c.var.session, body.ids, body.targetId),
  });
  api.add({
    method: "post",
    path: "/v3/new/account/resetPassword",
    need: "manageAccounts",
    tag,
    summary: "Set a new password for a sub-account (ends its sessions)",
    body: S.resetPasswordBody,
    handler: ({ body, c }) =>
      svc.resetPassword(c.var.session, body.id, body.password, body.confirmPassword),
  });
}

/** The caller's own password and profile. */
function registerOwnAccountRoutes(api: ApiRegistry, s: AccountRouteDeps) {
  const tag = "Accounts";
  const svc = s.accounts;
  const ownProfile = new OwnProfile(s.access, s.accounts, s.alertSettings);
  api.add({
    method: "post",
    path: "/v3/new/account/changePassword",
    need: "self",
    tag,
    summary: "Change the caller's own password (not for virtual accounts)",
    body: S.changePasswordBody,
    handler: ({ body, c }) =>
      svc.changePassword(c.var.session, body.oldPassword, body.newPassword, body.confirmPassword),
  });
  api.add({
    method: "post",
    path: "/v3/new/account/updateProfile",
    need: "self",
    tag,
    summary:
      "Edit the caller's own profile and units; alarmSoundFlag sets the alert settings' sound",
    body: S.updateProfileBody,
    handler: async ({ body, c }) => {
      await ownProfile.update(c.var.session, body);
    },
  });
}

/** The subtree: children, tree nodes and one account. */
function registerAccountQueryRoutes(api: ApiRegistry, s: AccountRouteDeps) {
  const tag = "Accounts";
  const svc = s.accounts;
  api.add({
    method: "post",
    path: "/v3/new/account/children",
    need: "read",
    tag,
    summary: "Paged, searchable list of the subtree (or direct children) of an account",
    body: S.childrenBody,
    handler: ({ body, c }) => svc.children(c.var.session, body),
  });
  api.add({
    method: "post",
    path: "/v3/new/account/tree",
    need: "read",
    tag,
    summary: "Direct children of a tree node (default: the caller)",
    body: S.treeBody,
    handler: ({ body, c }) => svc.tree(c.var.session, body.parentId),
  });
  api.add({
    method: "get",
    path: "/v3/new/account/detail",
    need: "read",
    tag,
    summary: "One account of the caller's subtree",
    query: z.object({ id: S.accountId }),
    handler: ({ query, c }) => svc.detail(c.var.session, query.id),
  });
}

/** Ending a sub-account's sessions. */
function registerAccountSessionRoutes(api: ApiRegistry, s: AccountRouteDeps) {
  const tag = "Accounts";
  const forcedLogout = new ForcedLogout(s.access, s.auth);
  api.add({
    method: "post",
    path: "/v3/new/account/forceLogout",
    need: "manageAccounts",
    tag,
    summary: "End every session of a sub-account",
    body: S.idBody,
    handler: async ({ body, c }) => ({
      sessions: await forcedLogout.of(c.var.session, body.id),
    }),
  });
}

/** Virtual accounts. */
function registerVirtualAccountRoutes(api: ApiRegistry, s: AccountRouteDeps) {
  const tag = "Accounts";
  const svc = s.accounts;
  api.add({
    method: "post",
    path: "/v3/new/account/virtual/add",
    need: "manageVirtual",
    tag,
    summary: "Create a virtual account under the caller",
    body: S.addVirtualBody,
    handler: ({ body, c }) => svc.addVirtual(c.var.session, body),
  });
  api.add({
    method: "post",
    path: "/v3/new/account/virtual/list",
    need: "read",
    tag,
    summary: "The caller's virtual accounts",
    body: z.object({}).strict(),
    handler: ({ c }) => svc.listVirtual(c.var.session),
  });
  api.add({
    method: "post",
    path: "/v3/new/account/virtual/update",
    need: "manageVirtual",
    tag,
    summary: "Edit a virtual account's name, scope and expiry",
    body: S.updateVirtualBody,
    handler: ({ body, c }) => svc.updateVirtual(c.var.session, body),
  });
  api.add({
    method: "post",
    path: "/v3/new/account/virtual/delete",
    need: "manageVirtual",
    tag,
    summary: "Delete a virtual account",
    body: S.idBody,
    handler: ({ body, c }) => svc.removeVirtual(c.var.session, body.id),
  });
}
