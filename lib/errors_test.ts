import assert from "node:assert/strict";
import { CATALOGUE } from "./errors.ts";
import { RESOURCES } from "./i18n/resources.ts";
const { en, zh } = RESOURCES;

Deno.test("every catalogue code is unique", () => {
  const codes = Object.values(CATALOGUE);
  assert.equal(new Set(codes).size, codes.length);
});

Deno.test("spec codes keep their meaning", () => {
  assert.equal(CATALOGUE.success, 10000);
  assert.equal(CATALOGUE.devicesStillBound, 20004);
  assert.equal(CATALOGUE.subAccountsExist, 20005);
  assert.equal(CATALOGUE.miCoinsInBalance, 20010);
  assert.equal(CATALOGUE.contactServiceProvider, 20225);
  assert.deepEqual(
    [1, 2, 3, 4, 5],
    [
      CATALOGUE.transferToSelf,
      CATALOGUE.transferParentToChild,
      CATALOGUE.transferNotUnderLoginAccount,
      CATALOGUE.transferAlreadyUnderTarget,
      CATALOGUE.transferParentChildRelation,
    ],
  );
});

Deno.test("every catalogue message is translated in English and Chinese", () => {
  for (const name of Object.keys(CATALOGUE)) {
    assert.ok(name in en.errors, `en errors.${name}`);
    assert.ok(name in zh.errors, `zh errors.${name}`);
  }
});

Deno.test("English and Chinese have the same keys", () => {
  const keys = (o: unknown, p = ""): string[] =>
    Object.entries(o as Record<string, unknown>).flatMap(([k, v]) =>
      typeof v === "object" && v ? keys(v, `${p}${k}.`) : [`${p}${k}`]
    );
  assert.deepEqual(keys(en).sort(), keys(zh).sort());
});
