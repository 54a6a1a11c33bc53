/**
 * File transfers of the device page: multipart uploads through the same envelope and CSRF
 * rules as lib/client/api.ts, and blob downloads named by content-disposition (spec §7).
 */
import { ApiError } from "../../lib/client/api.ts";

function csrf(): string {
  const hit = document.cookie.split("; ").find((c) => c.startsWith("tp_csrf="));
  return hit ? decodeURIComponent(hit.slice("tp_csrf=".length)) : "";
}

export async function upload<T>(path: string, form: FormData): Promise<T> {
  const res = await fetch(path, {
    method: "POST",
    credentials: "same-origin",
    headers: { "x-csrf-token": csrf() },
    body: form,
  });
  const json = await res.json().catch(() => null) as
    | { code: number; msg: string; data: T }
    | null;
  if (!json) throw new ApiError(res.statusText || "Request error", res.status);
  if (json.code !== 10000) throw new ApiError(json.msg, json.code, json.data);
  return json.data;
}

/** Posts (or gets) and saves the answer as a file; a JSON answer is a refusal. */
export async function download(path: string, body?: unknown): Promise<void> {
  const res = await fetch(path, {
    method: body === undefined ? "GET" : "POST",
    credentials: "same-origin",
    headers: { "content-type": "application/json", "x-csrf-token": csrf() },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.headers.get("content-type")?.includes("json")) {
    const json = await res.json();
    throw new ApiError(json.msg, json.code, json.data);
  }
  const name = /filename="([^"]+)"/.exec(res.headers.get("content-disposition") ?? "")?.[1] ??
    "download.xlsx";
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
