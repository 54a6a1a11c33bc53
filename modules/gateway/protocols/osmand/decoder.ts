/**
 * OsmAnd HTTP requests → positions. Three request shapes reach the same endpoint:
 *   - GET/POST with everything in the query string (OsmAnd, older Traccar Client);
 *   - POST `application/x-www-form-urlencoded` with the same keys in the body;
 *   - POST JSON from Traccar Client v9+ (see json.ts): one object, or an array of them.
 *
 * Never throws: malformed or oversized requests give `{error}`, which the HTTP layer
 * should answer with 400 so the client does not retry forever.
 */

import { decodeJsonBody } from "./json.ts";
import { decodeQuery } from "./query.ts";
import { failure, isValidDeviceId, type OsmAndResult } from "./result.ts";
import type { Position } from "../types.ts";

/** Positions one JSON request may carry (as json.ts allows in one `location` array). */
const MAX_JSON_ITEMS = 1000;

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
    const queryId = query.find(([key]) => key === "id" || key === "deviceid")?.[1];
    if (Array.isArray(parsed)) return decodeJsonArray(parsed, queryId, now);
    if (typeof parsed !== "object" || parsed === null) {
      return failure("json body must be an object or an array of objects");
    }
    return decodeJsonBody(parsed as Record<string, unknown>, queryId, now);
  }
  // Form body: its keys extend (and, coming later, override) the query string's.
  return decodeQuery([...query, ...new URLSearchParams(trimmedBody)], now);
}

/**
 * A JSON array of the objects above (Traccar's client SDK uploads a backlog this way). One
 * request is one device — its answer carries that device's pending command — so every element
 * must name the same device (or none: the one named before it, or the query's id).
 */
function decodeJsonArray(items: unknown[], queryId: string | undefined, now: Date): OsmAndResult {
  if (items.length > MAX_JSON_ITEMS) return failure("too many locations");
  let deviceId: string | undefined;
  const positions: Position[] = [];
  for (const item of items) {
    if (typeof item !== "object" || item === null || Array.isArray(item)) {
      return failure("json array items must be objects");
    }
    const result = decodeJsonBody(item as Record<string, unknown>, deviceId ?? queryId, now);
    if ("error" in result) return result;
    if (deviceId !== undefined && result.deviceId !== deviceId) {
      return failure("json array names several devices");
    }
    deviceId = result.deviceId;
    positions.push(...result.positions);
    if (positions.length > MAX_JSON_ITEMS) return failure("too many locations");
  }
  deviceId ??= queryId?.trim();
  if (!deviceId) return failure("missing device_id");
  return { deviceId, positions };
}

function isJson(headers: Record<string, string> | undefined, body: string): boolean {
  const contentType = Object.entries(headers ?? {})
    .find(([name]) => name.toLowerCase() === "content-type")?.[1] ?? "";
  return contentType.toLowerCase().includes("json") || body.startsWith("{") ||
    body.startsWith("[");
}
