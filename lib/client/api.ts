/**
 * Browser-side API client (spec §7): JSON in, `{code, msg, data}` out, 30 s timeout, CSRF
 * header for cookie sessions, and the catalogue's logout codes handled in one place.
 */
export const HTTP_TIMEOUT_MS = 30_000;
const LOGOUT_CODES = new Set([10005, 10006, 405]);

export class ApiError extends Error {
  constructor(message: string, readonly code: number, readonly data: unknown = null) {
    super(message);
  }
}

function cookie(name: string): string {
  const hit = document.cookie.split("; ").find((c) => c.startsWith(`${name}=`));
  return hit ? decodeURIComponent(hit.slice(name.length + 1)) : "";
}

/** The CSRF token cookie sessions send with changes (for requests made without api()). */
export const csrfToken = () => cookie("tp_csrf");

function toLogin() {
  const back = location.pathname + location.search;
  location.href = `/login?redirect=${encodeURIComponent(back)}`;
}

export async function api<T = unknown>(
  path: string,
  body?: unknown,
  opts: { method?: string; networkErrorText?: string; timeoutText?: string } = {},
): Promise<T> {
  const method = opts.method ?? (body === undefined ? "GET" : "POST");
  const ctrl = new AbortController();
  const timer = setTimeout(() => ctrl.abort(), HTTP_TIMEOUT_MS);
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      signal: ctrl.signal,
      credentials: "same-origin",
      headers: { "content-type": "application/json", "x-csrf-token": cookie("tp_csrf") },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (e) {
    const timedOut = (e as Error).name === "AbortError";
    throw new ApiError(
      timedOut ? opts.timeoutText ?? "Request timeout" : opts.networkErrorText ?? "Request failed",
      timedOut ? 49010 : 0,
    );
  } finally {
    clearTimeout(timer);
  }
  if (res.status === 401) {
    toLogin();
    throw new ApiError("", 10005);
  }
  const json = await res.json().catch(() => null) as { code: number; msg: string; data: T } | null;
  if (!json) throw new ApiError(res.statusText || "Request error", res.status);
  if (json.code === 10000 || json.code === 0) return json.data;
  if (LOGOUT_CODES.has(json.code)) {
    toLogin();
    throw new ApiError(json.msg, json.code);
  }
  // 10004 carries its text in data; 30039 is silent.
  const message = json.code === 10004
    ? String(json.data ?? json.msg)
    : json.code === 30039
    ? ""
    : json.msg;
  throw new ApiError(message, json.code, json.data);
}

/** The field a refusal names (illegal parameter), for showing the message under it. */
export function refusedField(e: unknown): string | null {
  if (!(e instanceof ApiError) || e.code !== 49004) return null;
  const data = e.data as { field?: string } | null;
  return data?.field ?? null;
}
