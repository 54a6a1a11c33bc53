import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { AppEnv } from "./env.ts";

export const TOKEN_COOKIE = "tp_token";
export const CSRF_COOKIE = "tp_csrf";
export const CSRF_HEADER = "x-csrf-token";

/**
 * The token travels in an HttpOnly cookie for page requests; a second, readable cookie
 * holds the CSRF token that scripts echo in a header (double submit).
 */
export function setSessionCookies(
  c: Context<AppEnv>,
  token: string,
  expiresAt: number,
  secure: boolean,
) {
  const common = { path: "/", secure, expires: new Date(expiresAt) };
  setCookie(c, TOKEN_COOKIE, token, { ...common, httpOnly: true, sameSite: "Lax" });
  setCookie(c, CSRF_COOKIE, crypto.randomUUID(), {
    ...common,
    httpOnly: false,
    sameSite: "Strict",
  });
}

export function clearSessionCookies(c: Context<AppEnv>) {
  deleteCookie(c, TOKEN_COOKIE, { path: "/" });
  deleteCookie(c, CSRF_COOKIE, { path: "/" });
}

export function readToken(c: Context<AppEnv>): { token: string; via: "cookie" | "bearer" } | null {
  const auth = c.req.header("authorization");
  if (auth?.startsWith("Bearer ")) {
    const token = auth.slice(7).trim();
    if (token && token !== "undefined") return { token, via: "bearer" };
  }
  const cookie = getCookie(c, TOKEN_COOKIE);
  return cookie ? { token: cookie, via: "cookie" } : null;
}

/** Cookie-authenticated changes must echo the CSRF cookie in a header. */
export function csrfOk(c: Context<AppEnv>): boolean {
  if (["GET", "HEAD", "OPTIONS"].includes(c.req.method)) return true;
  const cookie = getCookie(c, CSRF_COOKIE);
  const header = c.req.header(CSRF_HEADER);
  return !!cookie && !!header && cookie.length === header.length &&
    timingSafeEqualStr(cookie, header);
}

function timingSafeEqualStr(a: string, b: string): boolean {
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
