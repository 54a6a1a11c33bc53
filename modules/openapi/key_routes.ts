import { z } from "zod";
import type { ApiRegistry } from "../../lib/http/api.ts";
import type { OpenKeys } from "./keys.ts";
import { KEY_SCOPES } from "./model.ts";

/** The services these routes use (the composition root passes them). */
export interface KeyRouteDeps {
  openKeys: OpenKeys;
}

/**
 * App keys of the caller's own login (need self: any account, virtual ones included, for its
 * own keys; an Open API token never manages keys, since no key scope covers self). A key acts
 * as its account with that account's permissions, narrowed by the scope.
 */
export function registerOpenKeyRoutes(api: ApiRegistry, s: KeyRouteDeps) {
  const tag = "Open API keys";
  api.add({
    method: "post",
    path: "/v3/new/openapi/key/create",
    need: "self",
    // Keys act as the account: who made and revoked one belongs in the business log.
    audit: true,
    tag,
    summary:
      "Create an app key (scope read, commands, manage; optional expiry): the only answer that shows appSecret in full",
    body: z.object({
      name: z.string().trim().min(1).max(50),
      scope: z.array(z.enum(KEY_SCOPES)).min(1).max(KEY_SCOPES.length),
      expiresAt: z.iso.datetime({ offset: true }).nullable().optional(),
    }).strict(),
    handler: ({ body, c }) => s.openKeys.create(c.var.session, body),
  });
  api.add({
    method: "post",
    path: "/v3/new/openapi/key/list",
    need: "self",
    tag,
    summary: "The caller's app keys, secrets masked, with status and last use",
    body: z.object({}).strict(),
    handler: ({ c }) => s.openKeys.list(c.var.session),
  });
  api.add({
    method: "post",
    path: "/v3/new/openapi/key/revoke",
    need: "self",
    audit: true,
    tag,
    summary: "Revoke an app key: its signed calls and access tokens stop at once",
    body: z.object({ appKey: z.string().trim().regex(/^[0-9A-F]{32}$/) }).strict(),
    handler: async ({ body, c }) => {
      await s.openKeys.revoke(c.var.session, body.appKey);
      return null;
    },
  });
}
