/**
 * Shared fixtures for the accounts, auth and domains tests: requests with a chosen client
 * address, cookies or headers, account creation through the API, and the isolation tree.
 * Not a test file itself.
 */
import assert from "node:assert/strict";
import { ADMIN_PASSWORD, type TestApp } from "../../tests/helpers/harness.ts";
import { CATALOGUE, type ErrorName } from "../../lib/errors.ts";

export const PASSWORD = "Passw0rd1";

export interface RequestOptions {
  body?: unknown;
  /** A raw body, sent as is (for invalid JSON and size tests). */
  raw?: BodyInit;
  token?: string;
  method?: string;
  /** Client address as Deno.serve would report it (the harness's requests have none). */
  ip?: string;
  cookies?: Record<string, string>;
  headers?: Record<string, string>;
}

/** One API call with full control over address, cookies and headers. */
export async function request(t: TestApp, path: string, o: RequestOptions = {}) {
  const headers: Record<string, string> = { "content-type": "application/json", ...o.headers };
  if (o.token) headers.authorization = `Bearer ${o.token}`;
  if (o.cookies) {
    headers.cookie = Object.entries(o.cookies).map(([k, v]) => `${k}=${v}`).join("; ");
  }
  const hasBody = o.body !== undefined || o.raw !== undefined;
  const res = await t.app.request(
    path,
    {
      method: o.method ?? (hasBody ? "POST" : "GET"),
      headers,
      body: o.raw ?? (o.body === undefined ? undefined : JSON.stringify(o.body)),
    },
    o.ip ? { remoteAddr: { hostname: o.ip, port: 40000, transport: "tcp" } } : undefined,
  );
  const json = res.headers.get("content-type")?.includes("json") ? await res.json() : null;
  return { status: res.status, json, res };
}

/** Asserts a `{code}` envelope with HTTP 200 and the catalogue code of `name`. */
export function assertCode(
  r: { status: number; json: { code: number; msg: string; data: unknown } | null },
  name: ErrorName,
  status = 200,
) {
  assert.equal(
    r.json?.code,
    CATALOGUE[name],
    `expected ${name} (${CATALOGUE[name]}), got ${JSON.stringify(r.json)}`,
  );
  assert.equal(r.status, status, `HTTP status for ${name}`);
}

export function assertOk(r: { status: number; json: { code: number } | null }) {
  assert.equal(r.json?.code, CATALOGUE.success, `expected success, got ${JSON.stringify(r.json)}`);
  assert.equal(r.status, 200);
}

/** Creates an account through the API and returns its id. */
export async function addAccount(
  t: TestApp,
  token: string,
  fields: Record<string, unknown> & { account: string; parentId: string; accountType: number },
): Promise<string> {
  const r = await t.call(
    "/v3/new/account/add",
    { nickName: `${fields.account}_n`.slice(0, 25), password: PASSWORD, ...fields },
    token,
  );
  assertOk(r);
  return r.json.data.id;
}

export const FULL_SCOPE = { instructionsFlag: 1, updateFlag: 1, videoFlag: 1 } as const;

export async function addVirtual(
  t: TestApp,
  token: string,
  account: string,
  fields: Record<string, unknown> = {},
): Promise<string> {
  const r = await t.call(
    "/v3/new/account/virtual/add",
    { account, nickName: account, password: PASSWORD, scope: FULL_SCOPE, ...fields },
    token,
  );
  assertOk(r);
  return r.json.data.id;
}

/** The id of the account behind a token. */
export async function whoAmI(t: TestApp, token: string): Promise<string> {
  const r = await t.call("/v3/new/account/current", undefined, token);
  assertOk(r);
  return r.json.data.id;
}

/**
 * admin → distA (8) → entA (9) → userA (12), spareA (12); admin → distB (8) → entB (9).
 * Virtual accounts: vA, vA2 of distA, vEntA of entA, vB of distB (all with full scope).
 */
export async function buildTree(t: TestApp) {
  const admin = await t.login("admin", ADMIN_PASSWORD);
  const adminId = await whoAmI(t, admin);
  const distA = await addAccount(t, admin, { account: "distA", accountType: 8, parentId: adminId });
  const entA = await addAccount(t, admin, { account: "entA", accountType: 9, parentId: distA });
  const userA = await addAccount(t, admin, { account: "userA", accountType: 12, parentId: entA });
  const spareA = await addAccount(t, admin, { account: "spareA", accountType: 12, parentId: entA });
  const distB = await addAccount(t, admin, { account: "distB", accountType: 8, parentId: adminId });
  const entB = await addAccount(t, admin, { account: "entB", accountType: 9, parentId: distB });
  const tokens = {
    admin,
    distA: await t.login("distA", PASSWORD),
    distB: await t.login("distB", PASSWORD),
    entA: await t.login("entA", PASSWORD),
  };
  const vA = await addVirtual(t, tokens.distA, "virtA1");
  const vA2 = await addVirtual(t, tokens.distA, "virtA2");
  const vEntA = await addVirtual(t, tokens.entA, "virtEntA");
  const vB = await addVirtual(t, tokens.distB, "virtB1");
  return {
    ids: { admin: adminId, distA, entA, userA, spareA, distB, entB, vA, vA2, vEntA, vB },
    tokens: { ...tokens, vB: await t.login("virtB1", PASSWORD) },
  };
}

export type Tree = Awaited<ReturnType<typeof buildTree>>;

/** Decodes a JWT's claims (no verification: the server does that). */
export function decodeJwt(token: string): Record<string, unknown> {
  const part = token.split(".")[1].replace(/-/g, "+").replace(/_/g, "/");
  return JSON.parse(atob(part + "=".repeat((4 - part.length % 4) % 4)));
}

/** Every stored entry except append-only logs and counters, to prove a refusal changed nothing. */
export async function snapshot(kv: Deno.Kv): Promise<string> {
  const skip = ["loginLog", "loginFailures", "captcha"];
  const out: unknown[] = [];
  for await (const e of kv.list({ prefix: [] })) {
    if (e.key[0] === "auth" && skip.includes(String(e.key[1]))) continue;
    out.push([e.key, e.value, e.versionstamp]);
  }
  // Counters (Deno.KvU64) hold bigints, which JSON cannot write as they are.
  return JSON.stringify(out, (_, v) => typeof v === "bigint" ? `${v}n` : v);
}
