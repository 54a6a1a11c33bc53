/**
 * OsmAnd HTTP requests → positions. Three request shapes reach the same endpoint:
 *   - GET/POST with everything in the query string (OsmAnd, older Traccar Client);
 *   - POST `application/x-www-form-urlencoded` with the same keys in the body;
 *   - POST JSON from Traccar Client v9+ (see json.ts).
 *
 * Never throws: malformed or oversized requests give `{error}`, which the HTTP layer
 * should answer with 400 so the client does not retry forever.
 */

import { decodeJsonBody } from "./json.ts";
import { decodeQuery } from "./query.ts";
import { failure, isValidDeviceId, type OsmAndResult } from "./result.ts";

export interface OsmAndRequest {
  method: string;
  /** Path and query (`/?id=...`) or an absolute URL. */
  url: string;
  headers?: Record<string, string>;
  body?: string;
}

export const MAX_URL_LENGTH = 8 * 1024;
/** Generous for batch uploads (about 1000 locations) while bounding memory. */
export const MAX_BODY_LENGTH = 512 * 1024;

export function decodeOsmAndRequest(
  request: OsmAndRequest,
  now: Date = new Date(),
): OsmAndResult {
  const result = decodeRequest(request, now);
  if ("error" in result || isValidDeviceId(result.deviceId)) return result;
  return failure("invalid device id");
}

function decodeRequest(request: OsmAndRequest, now: Date): OsmAndResult {
  const method = request.method.toUpperCase();
  if (method !== "GET" && method !== "POST") return failure(`unsupported method ${method}`);
  if (request.url.length > MAX_URL_LENGTH) return failure("url too long");
  const body = request.body ?? "";
  if (body.length > MAX_BODY_LENGTH) return failure("body too large");

  let query: Array<[string, string]>;
  try {
    query = [...new URL(request.url, "http://localhost").searchParams];
  } catch {
    return failure("invalid url");
  }
  const trimmedBody = body.trim();
  if (trimmedBody === "") return decodeQuery(query, now);

  if (isJson(request.headers, trimmedBody)) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmedBody);
    } catch {
      return failure("invalid json");
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      return failure("json body must be an object");
    }
    const queryId = query.find(([key]) => key === "id" || key === "deviceid")?.[1];
    return decodeJsonBody(parsed as Record<string, unknown>, queryId, now);
  }
  // Form body: its keys extend (and, coming later, override) the query string's.
  return decodeQuery([...query, ...new URLSearchParams(trimmedBody)], now);
}

function isJson(headers: Record<string, string> | undefined, body: string): boolean {
  const contentType = Object.entries(headers ?? {})
    .find(([name]) => name.toLowerCase() === "content-type")?.[1] ?? "";
  return contentType.toLowerCase().includes("json") || body.startsWith("{");
}
