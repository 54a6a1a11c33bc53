import { z } from "zod";
import { BizError } from "../../lib/errors.ts";
import type { ApiRegistry } from "../../lib/http/api.ts";
import type { Services } from "../../lib/services.ts";
import type { Session } from "../../lib/http/env.ts";
import { ACCOUNT_TYPES } from "../accounts/model.ts";
import { DEFAULT_DOMAIN, IMAGE_FIELDS, imageUrl } from "./store.ts";

const color = z.string().regex(/^#[0-9a-fA-F]{6}$/, "validation.colorForm");
const imagePath = z.string().trim().max(300).regex(/^[^<>"'\s]*$/, "validation.pathForm");

export const domainBody = z.object({
  host: z.string().trim().min(1).max(253).regex(/^(\*|[a-zA-Z0-9.-]+)$/, "validation.hostForm"),
  domainTitle: z.string().trim().min(1).max(60),
  defaultLanguage: z.enum(["en", "zh"]),
  themeColor: color,
  hoverColor: color,
  selectedColor: color,
  view: z.string().trim().max(30).default("newlogin"),
  resourceDomain: z.string().trim().max(200).refine(
    (v) => v === "" || /^https?:\/\/[^\s<>"']+$/.test(v),
    "validation.urlForm",
  ),
  attr1: imagePath,
  twoDimensionalCodeImage: imagePath,
  domainLogin: imagePath,
  loginPageIllustration: imagePath,
  demoPageIllustration: imagePath,
  siteIcon: imagePath,
}).strict();

export function registerDomainRoutes(api: ApiRegistry, s: Services) {
  const tag = "White label";
  const assertAdmin = async (session: Session) => {
    const { self, owner } = await s.access.caller(session);
    if (self.virtual || owner.accountType !== ACCOUNT_TYPES.administrator) {
      throw new BizError("permissionDenied");
    }
  };

  api.add({
    method: "get",
    path: "/v3/new/domain/config",
    need: "public",
    tag,
    summary: "The white-label configuration of the requesting host",
    access: "public",
    handler: async ({ c }) => {
      const full = await s.domains.forHost(new URL(c.req.url).host);
      const { updatedAt: _u, ...config } = full;
      // Spec §3: each image field is handed out as a full address (resource domain plus a
      // path under tracker/domain), or "" when unset. The admin list keeps the raw paths.
      const images = Object.fromEntries(IMAGE_FIELDS.map((f) => [f, imageUrl(full, f)]));
      return { ...config, ...images };
    },
  });
  api.add({
    method: "post",
    path: "/v3/new/domain/list",
    need: "read",
    tag,
    summary: "All host configurations (administrator)",
    body: z.object({}).strict(),
    handler: async ({ c }) => {
      await assertAdmin(c.var.session);
      return { defaults: DEFAULT_DOMAIN, list: await s.domains.list() };
    },
  });
  api.add({
    method: "post",
    path: "/v3/new/domain/save",
    need: "manageAccounts",
    tag,
    summary: "Create or replace a host's configuration (administrator); host '*' is the fallback",
    body: domainBody,
    handler: async ({ body, c }) => {
      await assertAdmin(c.var.session);
      await s.domains.save({ ...DEFAULT_DOMAIN, ...body, updatedAt: new Date().toISOString() });
      return null;
    },
  });
  api.add({
    method: "post",
    path: "/v3/new/domain/delete",
    need: "manageAccounts",
    tag,
    summary: "Remove a host's configuration (administrator)",
    body: z.object({ host: domainBody.shape.host }).strict(),
    handler: async ({ body, c }) => {
      await assertAdmin(c.var.session);
      await s.domains.remove(body.host);
      return null;
    },
  });
}
