/**
 * Every field a request can be refused on has a label in both languages
 * (locales/<lang>/validation.json `fields`), so a refusal reads as one sentence in the
 * caller's language ("间隔（秒）不能小于 10。", not "Seconds不能小于 10。"). The names come from
 * the app's own OpenAPI document, which the route registry writes from every route's body,
 * query and multipart schemas, and from the instruction catalogue's parameters (refused as
 * `params.<key>`); so a new route or parameter without labels fails here.
 */
import assert from "node:assert/strict";
import { RESOURCES } from "../../lib/i18n/i18n.ts";
import { INSTRUCTIONS } from "../../modules/commands/catalogue/index.ts";
import { testApp } from "../helpers/harness.ts";

type Schema = Record<string, unknown>;

/** Field names refused by hand in services (BizError("illegalParameter", { field })). */
const REFUSED_BY_HAND = ["body", "coins", "kind", "expiration", "maxVoltage"];

/** Adds every property name of a JSON schema, through nested objects, arrays and unions. */
function collect(schema: unknown, into: Set<string>): void {
  if (!schema || typeof schema !== "object") return;
  if (Array.isArray(schema)) {
    for (const s of schema) collect(s, into);
    return;
  }
  const s = schema as Schema;
  const properties = (s.properties ?? {}) as Record<string, unknown>;
  for (const [name, sub] of Object.entries(properties)) {
    into.add(name);
    collect(sub, into);
  }
  for (const key of ["items", "prefixItems", "anyOf", "oneOf", "allOf", "additionalProperties"]) {
    collect(s[key], into);
  }
  if (s.$defs && typeof s.$defs === "object") {
    for (const def of Object.values(s.$defs as Record<string, unknown>)) collect(def, into);
  }
}

/** The field names of every operation in the OpenAPI document: body, form and query. */
function fieldsOf(doc: { paths: Record<string, Record<string, Schema>> }): Set<string> {
  const names = new Set<string>();
  for (const operations of Object.values(doc.paths)) {
    for (const op of Object.values(operations)) {
      const content = ((op.requestBody as Schema | undefined)?.content ?? {}) as Record<
        string,
        { schema?: unknown }
      >;
      for (const media of Object.values(content)) collect(media.schema, names);
      for (const p of (op.parameters ?? []) as { name: string; schema?: unknown }[]) {
        names.add(p.name);
        collect(p.schema, names);
      }
    }
  }
  return names;
}

function instructionParams(): string[] {
  return Object.values(INSTRUCTIONS).flatMap((i) => i.params.map((p) => p.key));
}

Deno.test("every request field has a label in English and Chinese", async () => {
  const t = await testApp();
  try {
    const r = await t.call("/v3/new/openapi.json");
    assert.equal(r.status, 200);
    const names = fieldsOf(r.json);
    // The document is the registry's: a sanity floor so an empty document cannot pass.
    assert.ok(names.size > 100, `only ${names.size} field names found`);
    for (const n of [...instructionParams(), ...REFUSED_BY_HAND]) names.add(n);
    // Numeric keys (a price per term, "prices.12") are named by their parent: see fieldLabel.
    for (const n of names) if (/^\d+$/.test(n)) names.delete(n);
    for (const lang of ["en", "zh"] as const) {
      const labels = (RESOURCES[lang].validation as { fields: Record<string, string> }).fields;
      const missing = [...names].filter((n) => !labels[n]?.trim()).sort();
      assert.deepEqual(missing, [], `locales/${lang}/validation.json fields lacks labels`);
    }
  } finally {
    await t.close();
  }
});

Deno.test("a Chinese field label is Chinese, not the English left untranslated", () => {
  const zh = (RESOURCES.zh.validation as { fields: Record<string, string> }).fields;
  // Acronyms stay as they are (IMEI, ICCID, SN); any other label holds Chinese characters.
  const untranslated = Object.entries(zh).filter(([, label]) =>
    !/\p{Script=Han}/u.test(label) && /[a-z]/.test(label)
  );
  assert.deepEqual(untranslated, []);
});
