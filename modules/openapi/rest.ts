/**
 * `POST /route/rest` (issue 22): the Tracksolid Open API endpoint. The one route outside the
 * JSON envelope and body reader of lib/http: it reads form (UTF-8) or JSON bodies, answers
 * HTTP 200 `{code, message, result?, data?}` always, and still declares a need per method
 * that the same access guard checks (with the app key's scope). Order of checks: address
 * rate (1005), body, common parameters (1001), app key (1007), signature and timestamp
 * (1001), key rate (1006), method (1008), access token (1004), need and scope (1003), the
 * method's parameters (1001), then the method.
 */
import type { Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { z } from "zod";
import { BizError } from "../../lib/errors.ts";
import type { AppEnv, Session } from "../../lib/http/env.ts";
import { log } from "../../lib/log.ts";
import { gzipParts } from "../../lib/http/gzip_parts.ts";
import type { AccessGuard } from "../accounts/access.ts";
import type { AccountLookup } from "../accounts/model.ts";
import type { OpenKeys } from "./keys.ts";
import { answerParts } from "./methods/raw_json.ts";
import type { OpenRateLimits } from "./rate_limits.ts";
import { parseTimestamp, signMatches, timestampFresh } from "./signature.ts";
import { keySession, type OpenTokens } from "./tokens.ts";
import {
  OPEN_CODES,
  type OpenAnswer,
  OpenApiError,
  type OpenCode,
  type OpenMethod,
} from "./types.ts";

const restLog = log.area("openapi");
/** Answers this large go gzipped to clients that take gzip (a track; not a token answer). */
const GZIP_FROM_BYTES = 64 * 1024;

export const REST_PATH = "/route/rest";
/** Bodies above this are refused (1001) before they are read, as for the JSON API. */
export const REST_BODY_LIMIT = 1024 * 1024;

/** The common parameters: never handed to a method. */
const COMMON = [
  "method",
  "timestamp",
  "app_key",
  "sign_method",
  "v",
  "format",
  "access_token",
  "sign",
];

export interface RestDeps {
  config: { OPENAPI_ALLOW_UNSIGNED: "on" | "off" };
  keys: OpenKeys;
  tokens: OpenTokens;
  limits: OpenRateLimits;
  access: AccessGuard;
  accounts: AccountLookup;
  /** Every method: the frame's (oauth, user.child) and the area methods. */
  methods: OpenMethod[];
}

/** A refusal of the frame: the code and the catalogue message. */
class Refusal extends Error {
  constructor(
    readonly code: OpenCode,
    readonly key: string,
    readonly params: Record<string, string> = {},
  ) {
    super(String(key));
  }
}

export function registerOpenRest(app: Hono<AppEnv>, d: RestDeps): void {
  const byName = new Map(d.methods.map((m) => [m.name, m]));
  const limit = bodyLimit({
    maxSize: REST_BODY_LIMIT,
    onError: (c) =>
      answer(
        c as Context<AppEnv>,
        refusalHead(
          c as Context<AppEnv>,
          new Refusal(OPEN_CODES.parameter, "errors.openBodyTooLarge"),
        ),
        {},
      ),
  });
  app.post(REST_PATH, limit, async (c) => {
    try {
      const { method, call } = await prepare(c, d, byName);
      const result = await run(method, call);
      return answer(c, { code: OPEN_CODES.ok, message: "success" }, result);
    } catch (e) {
      return answer(c, refusalHead(c, toRefusal(e, c)), {});
    }
  });
}

/** Everything before the method runs; throws a Refusal (or OpenApiError) on the first fault. */
async function prepare(c: Context<AppEnv>, d: RestDeps, byName: Map<string, OpenMethod>) {
  if (!d.limits.address(c.var.clientIp)) {
    throw new Refusal(OPEN_CODES.ipOverLimit, "errors.openIpOverLimit");
  }
  const params = await readParams(c);
  for (const name of ["method", "timestamp", "app_key", "v"]) {
    if (!params[name]) throw parameter(name, "missing");
  }
  if (params.format && params.format !== "json") throw parameter("format", "json only");
  if (!["1.0", "0.9"].includes(params.v)) throw parameter("v", "1.0 or 0.9");
  const time = parseTimestamp(params.timestamp);
  if (Number.isNaN(time)) throw parameter("timestamp", "yyyy-MM-dd HH:mm:ss (UTC)");

  const key = await d.keys.active(params.app_key);
  if (!key) throw new Refusal(OPEN_CODES.appKey, "errors.openAppKeyInvalid");
  checkSignature(params, key.secret, d.config.OPENAPI_ALLOW_UNSIGNED === "on");
  if (!timestampFresh(time)) throw new Refusal(OPEN_CODES.parameter, "errors.openTimestampStale");
  if (!d.limits.key(key.record.appKey)) {
    throw new Refusal(OPEN_CODES.tooFrequent, "errors.openTooFrequent");
  }
  void d.keys.touch(key.record.appKey).catch(() => {});

  const method = byName.get(params.method);
  if (!method) {
    throw new Refusal(OPEN_CODES.method, "errors.openMethodUnknown", {
      method: params.method.slice(0, 100),
    });
  }
  const session = await callerSession(d, method, params, key.record);
  try {
    await d.access.assertNeed(session, method.need);
  } catch (e) {
    if (e instanceof BizError) {
      throw new Refusal(OPEN_CODES.noPermission, "errors.openNoPermission");
    }
    throw e;
  }
  // Empty values are absent (they are left out of the signature too).
  const own = Object.fromEntries(
    Object.entries(params).filter(([k, v]) => !COMMON.includes(k) && v !== ""),
  );
  const parsed = method.params.safeParse(own);
  if (!parsed.success) throw zodParameter(parsed.error);
  return {
    method,
    call: {
      session,
      appKey: key.record.appKey,
      params: parsed.data as Record<string, unknown>,
      client: { ip: c.var.clientIp, userAgent: c.req.header("user-agent") ?? "" },
      origin: new URL(c.req.url).origin,
    },
  };
}

/** A signed call must match; an unsigned one is v=0.9 and allowed by configuration only. */
function checkSignature(params: Record<string, string>, secret: string, allowUnsigned: boolean) {
  if (!params.sign) {
    if (params.v === "0.9" && allowUnsigned) return;
    if (params.v === "0.9") throw new Refusal(OPEN_CODES.parameter, "errors.openUnsignedRefused");
    throw parameter("sign", "missing");
  }
  if ((params.sign_method ?? "md5").toLowerCase() !== "md5") {
    throw parameter("sign_method", "md5 only");
  }
  if (!signMatches(params, secret)) {
    throw new Refusal(OPEN_CODES.parameter, "errors.openSignInvalid");
  }
}

/**
 * The session the call runs as: the access token's (of this app key), or for the methods
 * that need none (token.get/refresh) the key owner's, narrowed by the key's scope.
 */
async function callerSession(
  d: RestDeps,
  method: OpenMethod,
  params: Record<string, string>,
  key: { appKey: string; accountId: string; scope: Session["scope"] },
): Promise<Session> {
  if (method.tokenRequired === false) {
    const owner = await d.accounts.get(key.accountId);
    if (!owner) throw new Refusal(OPEN_CODES.appKey, "errors.openAppKeyInvalid");
    return keySession(owner, key.scope, key.appKey);
  }
  const session = params.access_token
    ? await d.tokens.session(params.access_token, key.appKey)
    : null;
  if (!session) throw new Refusal(OPEN_CODES.token, "errors.openTokenInvalid");
  return session;
}

function run(method: OpenMethod, call: Parameters<OpenMethod["run"]>[0]): Promise<OpenAnswer> {
  return method.run(call as Parameters<OpenMethod["run"]>[0] & { params: z.infer<z.ZodTypeAny> });
}

/** Form (urlencoded or multipart, UTF-8) or JSON; query parameters too (the body wins). */
async function readParams(c: Context<AppEnv>): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [k, v] of new URL(c.req.url).searchParams) out[k] = v;
  const type = (c.req.header("content-type") ?? "").split(";")[0].trim().toLowerCase();
  const text = type === "multipart/form-data" ? null : await c.req.text();
  if (type === "multipart/form-data") {
    let form: FormData;
    try {
      form = await c.req.formData();
    } catch {
      throw parameter("body", "malformed form");
    }
    for (const [k, v] of form) {
      if (typeof v !== "string") throw parameter(k, "files are not accepted");
      out[k] = v;
    }
  } else if (type === "application/json" || text!.trimStart().startsWith("{")) {
    Object.assign(out, jsonParams(text!));
  } else if (text) {
    for (const [k, v] of new URLSearchParams(text)) out[k] = v;
  }
  return out;
}

/** A JSON object's values as the strings a form would carry (objects as JSON text). */
function jsonParams(text: string): Record<string, string> {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw parameter("body", "malformed JSON");
  }
  if (!body || typeof body !== "object" || Array.isArray(body)) {
    throw parameter("body", "a JSON object");
  }
  return Object.fromEntries(
    Object.entries(body).map(([k, v]) => [
      k,
      v === null || v === undefined ? "" : typeof v === "object" ? JSON.stringify(v) : String(v),
    ]),
  );
}

function parameter(name: string, reason: string): Refusal {
  return new Refusal(OPEN_CODES.parameter, "errors.openParameter", { name, reason });
}

function zodParameter(error: z.ZodError): Refusal {
  const issue = error.issues[0];
  const name = issue?.path.length
    ? issue.path.join(".")
    : String((issue as { keys?: string[] })?.keys?.[0] ?? "parameters");
  return parameter(name, issue?.message ?? "invalid");
}

/**
 * A method's or a service's refusal as an Open API code: the frame's own, OpenApiError as
 * thrown, the account guard's "not yours" as 1002, other business refusals as 1100 with the
 * catalogue message, anything else -1 (logged).
 */
function toRefusal(e: unknown, c: Context<AppEnv>): Refusal | OpenApiError {
  if (e instanceof Refusal || e instanceof OpenApiError) return e;
  if (e instanceof BizError) {
    if (["permissionDenied", "transferNotUnderLoginAccount"].includes(e.key)) {
      return new Refusal(OPEN_CODES.illegalUserOrDevice, "errors.openIllegalUser");
    }
    return new Refusal(OPEN_CODES.business, `errors.${e.key}`, stringParams(e.params));
  }
  restLog.error(`[${c.var.requestId}] ${REST_PATH} failed`, e);
  return new Refusal(OPEN_CODES.busy, "errors.openBusy");
}

const stringParams = (p: Record<string, string | number>) =>
  Object.fromEntries(Object.entries(p).map(([k, v]) => [k, String(v)]));

function refusalHead(c: Context<AppEnv>, r: Refusal | OpenApiError) {
  const message = r instanceof Refusal ? c.var.t(r.key, r.params) : r.message;
  return { code: r.code, message };
}

/**
 * HTTP 200 with the answer's parts (a week's track is megabytes of cached block fragments)
 * handed over as one Blob, gzipped when the client takes gzip and the answer is large: each
 * cached fragment is compressed once (lib/http/gzip_parts.ts), so a repeated 9 MB track costs
 * a few concatenations and moves ~30x fewer bytes.
 */
function answer(c: Context<AppEnv>, head: { code: number; message: string }, body: OpenAnswer) {
  const parts = answerParts(head, { result: null, ...body }) as Uint8Array<ArrayBuffer>[];
  const size = parts.reduce((n, p) => n + p.length, 0);
  const gzip = size >= GZIP_FROM_BYTES && /\bgzip\b/.test(c.req.header("accept-encoding") ?? "");
  return new Response(new Blob(gzip ? gzipParts(parts) as Uint8Array<ArrayBuffer>[] : parts), {
    status: 200,
    headers: {
      "content-type": "application/json; charset=utf-8",
      ...(gzip ? { "content-encoding": "gzip", vary: "accept-encoding" } : {}),
    },
  });
}
