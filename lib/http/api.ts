import type { Context, Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "./env.ts";
import { zodRefusal } from "./validation.ts";
import { readForm } from "./form.ts";
import { ok } from "./respond.ts";

type Method = "get" | "post" | "put" | "delete";

/** Who may call a route: anyone, or a logged-in session (the default). */
export type Access = "public" | "session";

/**
 * What a route needs of its caller (spec console §3, §6), declared where it is registered.
 * The flags behind each need live in modules/accounts/needs.ts; mount() asks one guard.
 * - public: no login (must match access: "public");
 * - read: any logged-in account, within its subtree;
 * - self: a change to the caller's own login or view (password, profile, follows, read marks,
 *   preferences, logout);
 * - editData, sendCommands, batchSendCommands, batchWorkMode, modifyCommands, viewReports,
 *   video, recharge, bindApp: the per-account permission flags (and a virtual account's scope);
 * - manageAccounts: a real account whose type may create accounts;
 * - manageVirtual: a real account (virtual accounts are managed by their master).
 */
export const NEEDS = [
  "public",
  "read",
  "self",
  "editData",
  "sendCommands",
  "batchSendCommands",
  "batchWorkMode",
  "modifyCommands",
  "viewReports",
  "video",
  "recharge",
  "bindApp",
  "manageAccounts",
  "manageVirtual",
] as const;
export type Need = typeof NEEDS[number];

/**
 * Needs that change something: a successful non-GET call of a route needing one of these is a
 * business operation (the business log). read, self and public never are; viewReports and
 * video only read.
 */
export const CHANGING_NEEDS: readonly Need[] = [
  "editData",
  "sendCommands",
  "batchSendCommands",
  "batchWorkMode",
  "modifyCommands",
  "recharge",
  "bindApp",
  "manageAccounts",
  "manageVirtual",
];

/**
 * Is a route a business operation? Its `audit` flag when set; otherwise a changing need, a
 * method other than GET and a last path segment other than "list" or "get" (the few reads
 * behind a changing permission, e.g. the administrator's card code list).
 */
export function changesState(def: Pick<RouteDef, "audit" | "need" | "method" | "path">): boolean {
  if (def.audit !== undefined) return def.audit;
  const last = def.path.split("/").pop() ?? "";
  return CHANGING_NEEDS.includes(def.need) && def.method !== "get" &&
    last !== "list" && last !== "get";
}

/** A business operation that succeeded, as the change hook receives it. */
export interface ChangeRecord {
  c: Context<AppEnv>;
  def: RouteDef;
  /** The parsed JSON body or query (null when the route takes none). */
  input: unknown;
  /** The upload form of a form route. */
  form: FormData | null;
}

/**
 * Called after each successful business operation (changesState), awaited before the
 * answer. lib/ knows no module: the app layer passes the recorder (modules/businesslog).
 */
export type ChangeHook = (change: ChangeRecord) => Promise<void>;

/** The shared access guard: refuses (throws) unless the session's caller has the need. */
export type NeedGuard = (c: Context<AppEnv>, need: Need) => Promise<void>;

export interface RouteDef<B extends z.ZodType = z.ZodType, Q extends z.ZodType = z.ZodType> {
  method: Method;
  path: string;
  tag: string;
  summary: string;
  access?: Access;
  /** What the caller needs (required: a route without it does not compile nor register). */
  need: Need;
  body?: B;
  query?: Q;
  /**
   * Multipart form parts (z.file() for files), documented as multipart/form-data in the
   * OpenAPI document; the handler reads the form itself.
   */
  form?: z.ZodType;
  /** Content type of a file answer (e.g. an xlsx download), documented beside the envelope. */
  produces?: string;
  /**
   * Overrides changesState(): true records a route the rule leaves out, false leaves out a
   * route that changes nothing although its need is a changing one.
   */
  audit?: boolean;
  /** Returns the `data` of a success answer, or a Response for files and redirects. */
  handler: (
    input: { body: z.infer<B>; query: z.infer<Q>; c: Context<AppEnv> },
  ) => unknown | Promise<unknown>;
}

/**
 * Every JSON API route is declared through a registry so that parsing with zod, the
 * `{code, msg, data}` envelope and the OpenAPI document all come from one definition.
 */
export class ApiRegistry {
  readonly routes: RouteDef[] = [];

  add<B extends z.ZodType = z.ZodUndefined, Q extends z.ZodType = z.ZodUndefined>(
    def: RouteDef<B, Q>,
  ): void {
    assertNeedDeclared(def as unknown as RouteDef);
    this.routes.push(def as unknown as RouteDef);
  }

  /**
   * Mounts every route: the session gate, then the need guard, then parsing and the handler;
   * a business operation that succeeded is then handed to `onChange`.
   */
  mount(
    app: Hono<AppEnv>,
    requireSession: (c: Context<AppEnv>) => Promise<void>,
    guard: NeedGuard,
    options: { onChange?: ChangeHook } = {},
  ): void {
    for (const def of this.routes) {
      const recorded = !!options.onChange && changesState(def);
      app.on(def.method.toUpperCase(), def.path, async (c) => {
        if ((def.access ?? "session") === "session") {
          await requireSession(c);
          await guard(c, def.need);
        }
        const query = def.query ? parse(def.query, c.req.queries(), true) : undefined;
        const body = def.body ? parse(def.body, await readJson(c), false) : undefined;
        // A malformed upload is refused here, once for every form route (cached for the handler).
        const form = def.form ? await readForm(c) : null;
        const result = await def.handler({ body, query, c });
        if (recorded && (!(result instanceof Response) || result.ok)) {
          await options.onChange!({ c, def, input: body ?? query ?? null, form });
        }
        return result instanceof Response ? result : ok(c, result ?? null);
      });
    }
  }

  /**
   * The OpenAPI document. `securitySchemes` adds schemes beside bearer and cookie that every
   * session route also accepts (the app passes the Open API app key token, issue 22).
   */
  openapi(
    info: { title: string; version: string; description?: string },
    extra: { securitySchemes?: Record<string, unknown> } = {},
  ): Record<string, unknown> {
    const paths: Record<string, Record<string, unknown>> = {};
    const extraSecurity = Object.keys(extra.securitySchemes ?? {}).map((k) => ({ [k]: [] }));
    for (const def of this.routes) {
      const op: Record<string, unknown> = {
        tags: [def.tag],
        summary: def.summary,
        "x-need": def.need,
        security: (def.access ?? "session") === "session"
          ? [{ bearer: [] }, { cookie: [] }, ...extraSecurity]
          : [],
        responses: {
          200: {
            description:
              "Envelope {code, msg, data}; code 10000 is success, other codes are catalogue refusals.",
            content: { "application/json": { schema: { $ref: "#/components/schemas/Envelope" } } },
          },
          401: { description: "Missing, invalid, expired or revoked token." },
        },
      };
      if (def.form) {
        op.requestBody = {
          required: true,
          content: { "multipart/form-data": { schema: toSchema(def.form) } },
        };
      }
      if (def.produces) {
        const ok = (op.responses as Record<number, { description: string; content: object }>)[200];
        ok.description = `The file (${def.produces}); a refusal is the JSON envelope.`;
        ok.content = {
          [def.produces]: { schema: { type: "string", format: "binary" } },
          ...ok.content,
        };
      }
      if (def.body) {
        op.requestBody = {
          required: true,
          content: { "application/json": { schema: toSchema(def.body) } },
        };
      }
      if (def.query) {
        const schema = toSchema(def.query) as {
          properties?: Record<string, unknown>;
          required?: string[];
        };
        op.parameters = Object.entries(schema.properties ?? {}).map(([name, s]) => ({
          name,
          in: "query",
          required: schema.required?.includes(name) ?? false,
          schema: s,
        }));
      }
      const path = def.path.replace(/:(\w+)/g, "{$1}");
      (paths[path] ??= {})[def.method] = op;
    }
    return {
      openapi: "3.1.0",
      info,
      paths,
      components: {
        securitySchemes: {
          bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" },
          cookie: { type: "apiKey", in: "cookie", name: "tp_token" },
          ...extra.securitySchemes,
        },
        schemas: {
          Envelope: {
            type: "object",
            properties: { code: { type: "integer" }, msg: { type: "string" }, data: {} },
            required: ["code", "msg", "data"],
          },
        },
      },
    };
  }
}

/**
 * The type system already demands `need`; this catches JavaScript callers and casts, and a
 * public need on a session route (or the reverse), at registration time.
 */
function assertNeedDeclared(def: RouteDef): void {
  const label = `${def.method?.toUpperCase()} ${def.path}`;
  if (!(NEEDS as readonly string[]).includes(def.need)) {
    throw new Error(`route ${label} declares no valid need (${String(def.need)})`);
  }
  if ((def.need === "public") !== ((def.access ?? "session") === "public")) {
    throw new Error(`route ${label}: need "public" goes with access "public" and only with it`);
  }
}

function toSchema(schema: z.ZodType): unknown {
  return z.toJSONSchema(schema, { io: "input", unrepresentable: "any" });
}

function parse<T extends z.ZodType>(schema: T, input: unknown, fromQuery: boolean): z.infer<T> {
  const value = fromQuery ? flattenQuery(input as Record<string, string[]>) : input;
  const result = schema.safeParse(value);
  if (!result.success) throw zodRefusal(result.error);
  return result.data;
}

/** Query strings repeat keys for arrays; single values become plain strings. */
function flattenQuery(q: Record<string, string[]>): Record<string, string | string[]> {
  return Object.fromEntries(Object.entries(q).map(([k, v]) => [k, v.length === 1 ? v[0] : v]));
}

/**
 * A body is read only when sent as JSON. HTML forms cannot send that content type
 * cross-site, so a forged form post (e.g. a login CSRF with a text/plain body shaped like
 * JSON) is refused before it reaches a handler.
 */
async function readJson(c: Context<AppEnv>): Promise<unknown> {
  const text = await c.req.text();
  if (!text.trim()) return {};
  const type = (c.req.header("content-type") ?? "").split(";")[0].trim().toLowerCase();
  const isJson = type === "application/json" || /^application\/[\w.+-]+\+json$/.test(type);
  try {
    if (!isJson) throw new Error("not JSON");
    return JSON.parse(text);
  } catch {
    throw zodRefusal(
      new z.ZodError([{ code: "custom", path: [], message: "validation.json", input: text }]),
    );
  }
}
