/**
 * Existence leaks across tenants: for every registry route that takes an IMEI (devices,
 * commands and every other area), a sibling tenant's device gives exactly the same answer as
 * an IMEI that does not exist — same status, code, message and data once the IMEI itself is
 * masked. Import is the one exception the spec makes: a sibling's IMEI answers "already
 * exists", exactly as the caller's own existing device does, with nothing more.
 */
import assert from "node:assert/strict";
import { z } from "zod";
import { createApp } from "../../app/app.ts";
import { CATALOGUE } from "../../lib/errors.ts";
import type { RouteDef } from "../../lib/http/api.ts";
import { testApp } from "../../tests/helpers/harness.ts";
import { asAdmin, ok, PASSWORD } from "./test_support.ts";

type Json = Record<string, unknown>;
type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  oneOf?: Schema[];
  minItems?: number;
  minLength?: number;
  minimum?: number;
  default?: unknown;
};

const IMEI_KEYS = new Set(["imei", "imeis"]);

/** A value a route is likely to accept, with every imei/imeis field set to `imei`. */
function sample(s: Schema, key: string, imei: string, ids: Record<string, string>): unknown {
  if (key === "imei") return imei;
  if (key === "imeis") return [imei];
  if (key in ids) return ids[key];
  if (s.const !== undefined) return s.const;
  if (s.enum?.length) return s.enum[0];
  if (s.default !== undefined) return s.default;
  const option = s.anyOf ?? s.oneOf;
  if (option?.length) {
    return sample(option.find((o) => o.type !== "null") ?? option[0], key, imei, ids);
  }
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== "null") : s.type;
  switch (type) {
    case "object": {
      const out: Json = {};
      for (const [k, v] of Object.entries(s.properties ?? {})) {
        if (s.required?.includes(k) || IMEI_KEYS.has(k) || hasImei(v)) {
          out[k] = sample(v, k, imei, ids);
        }
      }
      return out;
    }
    case "array":
      return Array.from(
        { length: Math.max(1, s.minItems ?? 0) },
        () => sample(s.items ?? {}, "", imei, ids),
      );
    case "string":
      return stringSample(key, s.minLength ?? 1);
    case "integer":
    case "number":
      return s.minimum ?? 1;
    case "boolean":
      return false;
    default:
      return "1";
  }
}

/** Times and dates where a route takes them (reports, fleet), so validation lets it through. */
function stringSample(key: string, minLength: number): string {
  const hourAgo = new Date(Date.now() - 3_600_000);
  if (key === "mcType") return "GT06N";
  if (/^(start|begin)Time$/i.test(key)) return hourAgo.toISOString();
  if (/^endTime$/i.test(key)) return new Date().toISOString();
  if (/date$/i.test(key)) return hourAgo.toISOString().slice(0, 10);
  return "a".repeat(Math.max(1, minLength));
}

function hasImei(s: Schema | undefined): boolean {
  if (!s) return false;
  if (Object.keys(s.properties ?? {}).some((k) => IMEI_KEYS.has(k))) return true;
  return [...Object.values(s.properties ?? {}), s.items, ...(s.anyOf ?? []), ...(s.oneOf ?? [])]
    .some((c) => hasImei(c));
}

const schemaOf = (t: z.ZodType) =>
  z.toJSONSchema(t, { io: "input", unrepresentable: "any" }) as Schema;

Deno.test("a sibling tenant's device answers like an IMEI that does not exist", async () => {
  const t = await testApp();
  try {
    let routes: RouteDef[] = [];
    createApp(t.services, (parts) => (routes = parts.api.routes));
    const { admin, adminId, add } = await asAdmin(t);
    const distA = await add("leakDistA", adminId, 8);
    const distB = await add("leakDistB", adminId, 8);
    const importTo = async (userId: string, imeis: string[]) =>
      ok(
        await t.call("/v3/new/newEquipment/importEquipment", {
          userId,
          mcType: "GT06N",
          imeis,
        }, admin),
      );
    const FOREIGN = "866000000000017";
    const OWN = "866000000000025";
    await importTo(distB, [FOREIGN]);
    await importTo(distA, [OWN]);
    const token = await t.login("leakDistA", PASSWORD);
    let unknownSeq = 100;
    const unknown = () => `8670000000${String(unknownSeq++).padStart(5, "0")}`;

    const probe = async (def: RouteDef, imei: string) => {
      const ids = { userId: distA, targetUserId: distA };
      const path = def.path.replace(/:(\w+)/g, "x");
      const abort = new AbortController();
      const headers: Record<string, string> = { authorization: `Bearer ${token}` };
      let url = path;
      let body: string | undefined;
      if (def.query) {
        const q = sample(schemaOf(def.query), "", imei, ids) as Record<string, unknown>;
        url += "?" + new URLSearchParams(
          Object.entries(q).map(([k, v]) => [k, String(v)]),
        );
      }
      if (def.body) {
        headers["content-type"] = "application/json";
        body = JSON.stringify(sample(schemaOf(def.body), "", imei, ids));
      }
      const res = await t.app.request(url, {
        method: def.method.toUpperCase(),
        headers,
        body,
        signal: abort.signal,
      });
      if (res.headers.get("content-type")?.includes("event-stream")) {
        abort.abort();
        await res.body?.cancel();
        return { status: res.status, text: "event-stream" };
      }
      const text = (await res.text()).replaceAll(imei, "<IMEI>");
      return { status: res.status, text };
    };

    const takesImei = routes.filter((d) =>
      !d.form && d.access !== "public" &&
      ((d.body && hasImei(schemaOf(d.body))) || (d.query && hasImei(schemaOf(d.query))))
    );
    assert.ok(takesImei.length >= 20, `only ${takesImei.length} routes take an IMEI`);
    const leaks: string[] = [];
    let reached = 0;
    for (const def of takesImei) {
      const isImport = def.path.endsWith("/importEquipment");
      // Import: compared with the caller's own existing device ("already exists" for both).
      const foreign = await probe(def, FOREIGN);
      const other = await probe(def, isImport ? OWN : unknown());
      if (foreign.status !== other.status || foreign.text !== other.text) {
        leaks.push(`${def.path}\n  foreign: ${foreign.text}\n  other:   ${other.text}`);
      }
      if (!foreign.text.includes(`"code":${CATALOGUE.illegalParameter}`)) reached++;
    }
    assert.deepEqual(leaks, [], leaks.join("\n"));
    // Most routes got past validation, so the comparison was about the device itself.
    assert.ok(reached >= takesImei.length * 0.7, `${reached} of ${takesImei.length} reached`);

    // Import says only "already exists": no owner, model or other detail.
    const r = ok(
      await t.call("/v3/new/newEquipment/importEquipment", {
        userId: distA,
        mcType: "GT06N",
        imeis: [FOREIGN],
      }, token),
    );
    assert.equal(r.succeeded, 0);
    assert.deepEqual(Object.keys(r.failed[0]).sort(), ["code", "imei", "reason"]);
    assert.equal(r.failed[0].code, CATALOGUE.imeiExists);
    assert.doesNotMatch(r.failed[0].reason, /leakDistB|GT06/);
  } finally {
    await t.close();
  }
});
