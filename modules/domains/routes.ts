import { type Context, Hono } from "hono";
import { z } from "zod";
import { BizError } from "../../lib/errors.ts";
import type { ApiRegistry } from "../../lib/http/api.ts";
import type { AppEnv } from "../../lib/http/env.ts";
import {
  DEFAULT_DOMAIN,
  DOMAIN_IMAGE_TYPES,
  IMAGE_FIELDS,
  imageUrl,
  MAX_DOMAIN_IMAGE_BYTES,
  MAX_DOMAIN_IMAGE_SIDE,
} from "./model.ts";
import type { DomainService } from "./service.ts";

/** The services these routes use (the composition root passes them). */
export interface DomainRouteDeps {
  domainService: DomainService;
}

/** The upload route; app/app.ts gives it a body limit above the JSON one. */
export const UPLOAD_IMAGE_PATH = "/v3/new/domain/uploadImage";
/** Room above the image limit for the form framing, so an oversize file gets its own refusal. */
export const UPLOAD_IMAGE_BODY_LIMIT = MAX_DOMAIN_IMAGE_BYTES * 2;

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

export function registerDomainRoutes(api: ApiRegistry, s: DomainRouteDeps) {
  const tag = "White label";
  const domains = s.domainService;

  api.add({
    method: "get",
    path: "/v3/new/domain/config",
    need: "public",
    tag,
    summary: "The white-label configuration of the requesting host",
    access: "public",
    handler: async ({ c }) => {
      const full = await domains.forHost(new URL(c.req.url).host);
      const { updatedAt: _u, ...config } = full;
      // Spec §3: each image field is handed out as a full address (resource domain plus a
      // path under tracker/domain), or "" when unset; without a resource domain the address
      // is this server's. The admin list keeps the raw paths.
      const origin = requestOrigin(c);
      const images = Object.fromEntries(
        IMAGE_FIELDS.map((f) => [f, imageUrl(full, f, origin)]),
      );
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
      return { defaults: DEFAULT_DOMAIN, list: await domains.list(c.var.session) };
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
      const config = { ...DEFAULT_DOMAIN, ...body, updatedAt: new Date().toISOString() };
      await domains.save(c.var.session, config);
      return null;
    },
  });
  api.add({
    method: "post",
    path: UPLOAD_IMAGE_PATH,
    need: "manageAccounts",
    tag,
    summary:
      `Upload a white-label image (administrator; multipart: field, file): PNG, JPEG, GIF, WebP or ICO by content, at most 2 MB and ${MAX_DOMAIN_IMAGE_SIDE} px a side; answers the path to put in the field and its address`,
    form: z.object({
      field: z.enum(IMAGE_FIELDS).describe("The configuration field the image is for"),
      file: z.file().mime(Object.values(DOMAIN_IMAGE_TYPES)).max(MAX_DOMAIN_IMAGE_BYTES)
        .describe("The image; its type is read from the content, never from the name"),
    }),
    handler: async ({ c }) => {
      // Refused before the form is read, whatever it holds.
      await domains.assertAdmin(c.var.session);
      const form = await c.req.formData();
      const field = z.enum(IMAGE_FIELDS).safeParse(form.get("field"));
      if (!field.success) throw badField("field", "validation.invalid");
      const file = form.get("file");
      if (!(file instanceof File) || file.size === 0) throw badField("file", "validation.required");
      const bytes = new Uint8Array(await file.arrayBuffer());
      const image = await domains.addImage(c.var.session, bytes, file.name);
      const config = { ...DEFAULT_DOMAIN, [field.data]: image.name };
      return {
        field: field.data,
        path: image.name,
        url: imageUrl(config, field.data, requestOrigin(c)),
        type: DOMAIN_IMAGE_TYPES[image.type],
        width: image.width,
        height: image.height,
        size: image.size,
      };
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
      await domains.remove(c.var.session, body.host);
      return null;
    },
  });
}

/**
 * The uploaded images at the spec's addresses: tracker/domain/<name>, and
 * tracker/domain/background/<name> for the login background (attr1). Public: login pages
 * show them before anyone logs in.
 */
export function domainImageRoutes(s: DomainRouteDeps): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  const serve = async (c: Context<AppEnv>) =>
    await s.domainService.serveImage(c.req.param("name") ?? "") ?? c.notFound();
  routes.get("/tracker/domain/:name", serve);
  routes.get("/tracker/domain/background/:name", serve);
  return routes;
}

/** This server as the caller reached it (a TLS proxy names its scheme in X-Forwarded-Proto). */
function requestOrigin(c: Context<AppEnv>): string {
  const url = new URL(c.req.url);
  const proto = c.req.header("x-forwarded-proto")?.split(",")[0].trim();
  return `${
    proto === "https" || proto === "http" ? proto : url.protocol.slice(0, -1)
  }://${url.host}`;
}

/** An illegal-parameter refusal naming a form field. */
const badField = (field: string, reasonKey: string) =>
  new BizError("illegalParameter", { field, reasonKey }, { field });
