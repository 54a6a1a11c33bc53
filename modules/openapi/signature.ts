/**
 * The Tracksolid Open API signature (issue 22): every parameter but `sign`, empty values left
 * out (as the public Java reference does), sorted by name, concatenated name+value, wrapped
 * in the app secret at both ends, MD5 of the UTF-8 bytes, upper-case hex. The steps are
 * exported for the reference page, which shows them for each example.
 */
import { createHash, timingSafeEqual } from "node:crypto";

/** How far a call's `timestamp` may be from the server's UTC clock. */
export const TIMESTAMP_WINDOW_MS = 10 * 60_000;

/** The string that is hashed: secret + name1value1name2value2… + secret. */
export function signText(params: Record<string, string>, secret: string): string {
  const names = Object.keys(params).filter((k) => k !== "sign" && params[k] !== "").sort();
  return secret + names.map((k) => k + params[k]).join("") + secret;
}

export function signParams(params: Record<string, string>, secret: string): string {
  return createHash("md5").update(signText(params, secret), "utf8").digest("hex").toUpperCase();
}

/** Constant-time comparison of the given sign (any case) with the expected one. */
export function signMatches(params: Record<string, string>, secret: string): boolean {
  const given = new TextEncoder().encode((params.sign ?? "").toUpperCase());
  const expected = new TextEncoder().encode(signParams(params, secret));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const TIME_FORM = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

/** A `yyyy-MM-dd HH:mm:ss` UTC timestamp as epoch ms; NaN when it is not one. */
export function parseTimestamp(s: string): number {
  const m = TIME_FORM.exec(s);
  if (!m) return NaN;
  const [y, mo, d, h, mi, se] = m.slice(1).map(Number);
  const t = Date.UTC(y, mo - 1, d, h, mi, se);
  return new Date(t).toISOString().slice(0, 19).replace("T", " ") === s ? t : NaN;
}

/** Whether a parsed timestamp lies within ±10 minutes of now. */
export function timestampFresh(t: number, now = Date.now()): boolean {
  return Math.abs(now - t) <= TIMESTAMP_WINDOW_MS;
}
