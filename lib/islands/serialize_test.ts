import assert from "node:assert/strict";
import { deserialize, escapeJson, serialize, SerializeError } from "./serialize.ts";

const XSS = "</script><script>alert(1)</script>";

Deno.test("serialize: round-trips JSON data", () => {
  const value = { a: 1, b: "x", c: [true, null, 2.5], d: { e: [] }, f: "" };
  assert.deepEqual(deserialize(serialize(value)), value);
});

Deno.test("serialize: escapes characters that could end the script element", () => {
  const text = serialize({ s: XSS, c: "<!-- x -->", amp: "a&b", ls: "\u2028\u2029" });
  for (const ch of ["<", ">", "&", "\u2028", "\u2029"]) {
    assert.ok(!text.includes(ch), `output contains ${JSON.stringify(ch)}: ${text}`);
  }
  assert.ok(!/<\/script/i.test(text));
  assert.deepEqual(deserialize(text), { s: XSS, c: "<!-- x -->", amp: "a&b", ls: "\u2028\u2029" });
});

Deno.test("serialize: escapes keys too", () => {
  const text = serialize({ [XSS]: XSS });
  assert.ok(!text.includes("<"));
  assert.deepEqual(deserialize(text), { [XSS]: XSS });
});

Deno.test("serialize: revives Dates, nested and in arrays", () => {
  const when = new Date("2024-05-06T07:08:09.010Z");
  const out = deserialize<{ when: Date; list: Date[]; deep: { d: Date } }>(
    serialize({ when, list: [when], deep: { d: when } }),
  );
  assert.ok(out.when instanceof Date);
  assert.equal(out.when.toISOString(), when.toISOString());
  assert.ok(out.list[0] instanceof Date);
  assert.ok(out.deep.d instanceof Date);
});

Deno.test("serialize: invalid Date stays an invalid Date", () => {
  const out = deserialize<{ d: Date }>(serialize({ d: new Date(NaN) }));
  assert.ok(out.d instanceof Date);
  assert.ok(Number.isNaN(out.d.getTime()));
});

Deno.test("serialize: user objects with tag-like keys are not mistaken for Dates", () => {
  const value = { a: { $date: "2024-01-01T00:00:00.000Z" }, b: { $obj: { x: 1 } } };
  assert.deepEqual(deserialize(serialize(value)), value);
});

Deno.test("serialize: JSON semantics for undefined and non-finite numbers", () => {
  assert.deepEqual(deserialize(serialize({ a: undefined, b: [undefined], c: NaN })), {
    b: [null],
    c: null,
  });
});

Deno.test("serialize: rejects functions with the property path", () => {
  assert.throws(
    () => serialize({ list: [{ onClick: () => {} }] }),
    (err: unknown) =>
      err instanceof SerializeError && err.path === "list[0].onClick" &&
      /function/.test(err.message),
  );
});

Deno.test("serialize: rejects non-plain objects, bigint, symbols and cycles", () => {
  assert.throws(() => serialize({ m: new Map() }), /Map/);
  assert.throws(() => serialize({ n: 1n }), /bigint/);
  assert.throws(() => serialize({ s: Symbol("x") }), /symbol/);
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  assert.throws(() => serialize(cyclic), /circular/);
  // Shared (non-cyclic) references are fine.
  const shared = { x: 1 };
  assert.deepEqual(deserialize(serialize({ a: shared, b: shared })), { a: shared, b: shared });
});

Deno.test("escapeJson: output parses to the same value", () => {
  const json = JSON.stringify({ s: XSS + "&\u2028" });
  assert.deepEqual(JSON.parse(escapeJson(json)), JSON.parse(json));
});
