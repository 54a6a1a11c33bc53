/**
 * Malformed requests never reach a 5xx: every route of the registry, called with a valid
 * administrator session, answers a catalogue envelope {code, msg} to a JSON body, garbage
 * bytes, an empty body, a multipart body whose file name holds a NUL, and a wrong content
 * type. The routes come from the registry, so a new route is fuzzed without a list here.
 */
import assert from "node:assert/strict";
import { createApp } from "./app.ts";
import { CATALOGUE } from "../lib/errors.ts";
import { testApp } from "../tests/helpers/harness.ts";
import type { RouteDef } from "../lib/http/api.ts";

/** A multipart body written by hand: FormData would refuse or escape the NUL. */
function multipartWithNul(): { body: Uint8Array<ArrayBuffer>; type: string } {
  const boundary = "----fuzz" + crypto.randomUUID().replaceAll("-", "");
  const parts = [
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a\0b.xlsx"\r\n` +
    `Content-Type: application/vnd.openxmlformats-officedocument.spreadsheetml.sheet\r\n\r\n` +
    `PK\x03\x04garbage\r\n`,
    `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="\0.jpg"\r\n` +
    `Content-Type: image/jpeg\r\n\r\n\xff\xd8\xff\r\n`,
    `--${boundary}\r\nContent-Disposition: form-data; name="imei\0"\r\n\r\n35971004900000\0\r\n`,
    `--${boundary}--\r\n`,
  ];
  return {
    body: new TextEncoder().encode(parts.join("")),
    type: `multipart/form-data; boundary=${boundary}`,
  };
}

interface Probe {
  name: string;
  type?: string;
  body?: BodyInit;
}

function probes(): Probe[] {
  const nul = multipartWithNul();
  return [
    { name: "json", type: "application/json", body: JSON.stringify({ a: 1, imei: ["x"] }) },
    { name: "json array", type: "application/json", body: "[1,2,3]" },
    { name: "json null", type: "application/json", body: "null" },
    {
      name: "garbage",
      type: "application/octet-stream",
      body: new Uint8Array([0, 0xff, 0xfe, 0x50, 0x4b, 3, 4, 0x80, 0x0a]),
    },
    { name: "garbage json", type: "application/json", body: '{\u0000"a":' },
    { name: "empty", type: "application/json", body: "" },
    { name: "empty multipart", type: "multipart/form-data; boundary=x", body: "" },
    { name: "multipart without boundary", type: "multipart/form-data", body: "--x\r\n" },
    { name: "multipart NUL", type: nul.type, body: nul.body },
    { name: "wrong type", type: "text/plain", body: "imei=1&file=2" },
    { name: "form urlencoded", type: "application/x-www-form-urlencoded", body: "a=%ZZ&file=1" },
    { name: "no type", body: "\u0000\u0001" },
  ];
}

/** Routes that end the caller's own session: fuzzed last so the session lasts. */
const SESSION_ENDING = /logout|kick|revoke/i;

Deno.test("every registry route answers a malformed request with a catalogue refusal", async () => {
  const t = await testApp();
  let routes: RouteDef[] = [];
  createApp(t.services, (parts) => (routes = parts.api.routes));
  let token = await t.adminToken();
  const ordered = [...routes].sort((a, b) =>
    Number(SESSION_ENDING.test(a.path)) - Number(SESSION_ENDING.test(b.path))
  );
  const failures: string[] = [];
  try {
    for (const def of ordered) {
      const bare = def.path.replace(/:(\w+)/g, "x");
      for (const method of new Set([def.method.toUpperCase(), "POST"])) {
        for (const p of probes()) {
          // Every other probe also carries a query string that does not decode.
          const path = p.name.length % 2 ? `${bare}?imei=%E0%A4%A&%ZZ=1&pageNum=x` : bare;
          const headers: Record<string, string> = { authorization: `Bearer ${token}` };
          if (p.type) headers["content-type"] = p.type;
          const hasBody = method !== "GET";
          const abort = new AbortController();
          const res = await t.app.request(path, {
            method,
            headers,
            body: hasBody ? p.body : undefined,
            signal: abort.signal,
          });
          // An event stream never ends: its status and type are the answer.
          const streaming = res.headers.get("content-type")?.includes("event-stream");
          if (streaming) abort.abort();
          const text = streaming ? (await res.body?.cancel(), "") : await res.text();
          const where = `${method} ${path} [${p.name}] → ${res.status} ${text.slice(0, 160)}`;
          if (res.status >= 500) {
            failures.push(where);
            continue;
          }
          if (res.status === 401) token = await t.adminToken();
          const json = res.headers.get("content-type")?.includes("json") ? tryJson(text) : null;
          // A refusal must be the envelope; a success may be a file (xlsx, image).
          if (!streaming && (res.status >= 400 || json)) {
            if (
              typeof json?.code !== "number" || typeof json?.msg !== "string" || !json.msg
            ) failures.push(`no envelope: ${where}`);
          }
        }
      }
    }
    assert.deepEqual(failures, [], failures.join("\n"));
  } finally {
    await t.close();
  }
});

function tryJson(text: string): { code?: unknown; msg?: unknown } | null {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

Deno.test("a control character in an uploaded file name is refused by name", async () => {
  const t = await testApp();
  try {
    const token = await t.adminToken();
    const form = new FormData();
    form.append("file", new File([new Uint8Array([0x50, 0x4b, 3, 4])], "sheet\u0001.xlsx"));
    const res = await t.app.request("/v3/new/newEquipment/batchEditUpload", {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    const json = await res.json();
    assert.equal(res.status, 200);
    assert.equal(json.code, CATALOGUE.illegalParameter);
    assert.equal(json.msg, "File must be a name without control characters.");
  } finally {
    await t.close();
  }
});
