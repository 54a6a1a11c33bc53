import { z } from "zod";
import type { ApiRegistry } from "../../lib/http/api.ts";
import { EMBED_MAX_ORIGINS } from "./model.ts";
import type { EmbedService } from "./service.ts";

/** The services these routes use (the composition root passes them). */
export interface EmbedRouteDeps {
  embed: EmbedService;
}

const keyField = z.string().regex(/^[\w-]{20,64}$/, "validation.invalid");

export function registerEmbedRoutes(api: ApiRegistry, s: EmbedRouteDeps) {
  const tag = "Embedded map";
  api.add({
    method: "post",
    path: "/v3/new/embed/keys",
    need: "read",
    tag,
    summary: "The caller's embed keys and the origins allowed to frame /iframe",
    body: z.object({}).strict(),
    handler: ({ c }) => s.embed.settings(c.var.session),
  });
  api.add({
    method: "post",
    path: "/v3/new/embed/createKey",
    need: "manageVirtual",
    tag,
    summary: "Create a read-only embed key of the caller's account (at most 5)",
    body: z.object({ label: z.string().trim().max(50).default("") }).strict(),
    handler: ({ body, c }) => s.embed.createKey(c.var.session, body.label),
  });
  api.add({
    method: "post",
    path: "/v3/new/embed/revokeKey",
    need: "manageVirtual",
    tag,
    summary: "Revoke an embed key: its /iframe stops at once",
    body: z.object({ key: keyField }).strict(),
    handler: ({ body, c }) => s.embed.revokeKey(c.var.session, body.key),
  });
  api.add({
    method: "post",
    path: "/v3/new/embed/origins",
    need: "manageVirtual",
    tag,
    summary:
      "Set the origins (https://host[:port]) allowed to frame the account's /iframe pages (CSP frame-ancestors)",
    body: z.object({
      origins: z.array(z.string().trim().min(1).max(200)).max(EMBED_MAX_ORIGINS),
    }).strict(),
    handler: ({ body, c }) => s.embed.setOrigins(c.var.session, body.origins),
  });
  api.add({
    method: "get",
    path: "/v3/new/embed/objects",
    need: "public",
    access: "public",
    tag,
    summary: "The embed key's account's devices for the map (no login, read-only)",
    query: z.object({ key: z.string().max(64) }).strict(),
    handler: ({ query }) => s.embed.objects(query.key),
  });
}
