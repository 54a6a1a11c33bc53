import { z } from "zod";
import type { ApiRegistry } from "../../lib/http/api.ts";
import { PUSH_FORMATS, PUSH_KINDS, type PushEndpoint } from "./push_model.ts";
import type { PushEndpoints } from "./push_service.ts";

/** The services these routes use (the composition root passes them). */
export interface PushRouteDeps {
  pushEndpoints: PushEndpoints;
}

/** The secret is shown whole: the receiver needs it to check signatures and tokens. */
const view = (e: PushEndpoint) => ({
  id: e.id,
  url: e.url,
  kinds: e.kinds,
  format: e.format,
  secret: e.secret,
  createdAt: e.createdAt,
});

export function registerPushRoutes(api: ApiRegistry, s: PushRouteDeps) {
  const tag = "Open API push";
  api.add({
    method: "post",
    path: "/v3/new/openapi/push/add",
    need: "editData",
    tag,
    summary:
      "Register a push endpoint (http/https, public address): alarms, positions (batched), online/offline, command results; Tracksolid form or signed JSON",
    body: z.object({
      url: z.string().trim().url().max(500).refine((u) => /^https?:\/\//i.test(u), {
        message: "validation.invalid",
      }),
      kinds: z.array(z.enum(PUSH_KINDS)).min(1).max(PUSH_KINDS.length),
      format: z.enum(PUSH_FORMATS).default("tracksolid"),
    }).strict(),
    handler: async ({ body, c }) => view(await s.pushEndpoints.add(c.var.session, body)),
  });
  api.add({
    method: "post",
    path: "/v3/new/openapi/push/list",
    need: "read",
    tag,
    summary: "The caller's account's push endpoints",
    body: z.object({}).strict(),
    handler: async ({ c }) => (await s.pushEndpoints.list(c.var.session)).map(view),
  });
  api.add({
    method: "post",
    path: "/v3/new/openapi/push/delete",
    need: "editData",
    tag,
    summary: "Remove a push endpoint",
    body: z.object({ id: z.string().uuid() }).strict(),
    handler: async ({ body, c }) => {
      await s.pushEndpoints.remove(c.var.session, body.id);
      return null;
    },
  });
  api.add({
    method: "post",
    path: "/v3/new/openapi/push/log",
    need: "read",
    tag,
    summary: "The account's recent push deliveries with every attempt (kept 30 days)",
    body: z.object({}).strict(),
    handler: ({ c }) => s.pushEndpoints.log(c.var.session),
  });
}
