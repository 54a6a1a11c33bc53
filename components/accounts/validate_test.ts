import assert from "node:assert/strict";
import * as S from "../../modules/accounts/schemas.ts";
import { RESOURCES, translator } from "../../lib/i18n/i18n.ts";
import { RULES as DOMAIN_RULES } from "../domains/validate.ts";
import { domainBody } from "../../modules/domains/routes.ts";
import { type Check, describe, sameAs, validate } from "./validate.ts";
import { RULES } from "./validate.ts";
import {
  canCreateAccounts,
  creatableTypes,
  editableTypes,
  formatDateTime,
  NODES,
  PERMISSION_FLAGS,
  SCOPE_FLAGS,
  TYPE_ORDER,
} from "./types.ts";

const passes = (checks: Check[], v: string) => checks.every((c) => c(v) === null);

/** The client accepts exactly what the server schema accepts. */
function sameVerdicts(
  name: string,
  checks: Check[],
  schema: { safeParse(v: unknown): { success: boolean } },
  samples: string[],
) {
  for (const v of samples) {
    assert.equal(passes(checks, v), schema.safeParse(v).success, `${name}: ${JSON.stringify(v)}`);
  }
}

Deno.test("client account rules agree with the server schemas", () => {
  sameVerdicts("account", RULES.account, S.loginAccount, [
    "ab",
    "abc",
    " abc ",
    "_abc",
    "a_b_c",
    "Ab9",
    "a".repeat(50),
    "a".repeat(51),
    "a-b",
    "a b",
    "user@example.com",
    "中文名",
    "",
    "   ",
  ]);
  sameVerdicts("virtual", RULES.virtualAccount, S.virtualLogin, [
    "abcd",
    "abcde",
    "a".repeat(30),
    "a".repeat(31),
    "v_1234",
    "x@y.io",
    "_abcde",
  ]);
  sameVerdicts("nickName", RULES.nickName, S.nickName, [
    "ab",
    "abc",
    "  ab  ",
    "a".repeat(25),
    "a".repeat(26),
    "张三丰",
  ]);
  sameVerdicts("password", RULES.password, S.password, [
    "abc12345",
    "abcdefgh",
    "12345678",
    "abc1234",
    "a1".repeat(25),
    "a1".repeat(25) + "x",
    " abc1234",
  ]);
  sameVerdicts("email", RULES.email, S.email, [
    "",
    "a@b.co",
    "a@b",
    "a b@c.de",
    `${"a".repeat(95)}@b.com`,
    " a@b.co ",
  ]);
  sameVerdicts("phone", RULES.phone, S.phone, [
    "",
    "+86-138",
    "123 456",
    "1".repeat(20),
    "1".repeat(21),
    "12a",
  ]);
  for (const v of ["2024-02-29", "2023-02-29", "0000-01-01", "2024-1-1", "2024-13-01"]) {
    assert.equal(passes(RULES.expiration, v), S.isCalendarDate(v), v);
  }
  assert.ok(passes(RULES.expiration, ""), "an empty expiry is allowed (no value sent)");
});

Deno.test("client domain rules agree with the server schema", () => {
  const shape = domainBody.shape;
  sameVerdicts("host", DOMAIN_RULES.host, shape.host, [
    "*",
    "track.example.com",
    "a b",
    "",
    "x_y.com",
    "Host-1.io",
  ]);
  sameVerdicts("title", DOMAIN_RULES.domainTitle, shape.domainTitle, [
    "",
    " ",
    "T",
    "a".repeat(60),
    "a".repeat(61),
  ]);
  sameVerdicts("color", DOMAIN_RULES.themeColor, shape.themeColor, [
    "#3b7aff",
    "#3B7AFF",
    "3b7aff",
    "#3b7af",
    "#3b7afg",
    " #3b7aff",
  ]);
  sameVerdicts("url", DOMAIN_RULES.resourceDomain, shape.resourceDomain, [
    "",
    "https://cdn.example.com",
    "http://x",
    "ftp://x",
    "https://a b",
    "cdn.example.com",
  ]);
  sameVerdicts("path", DOMAIN_RULES.attr1, shape.attr1, [
    "",
    "bg.png",
    "a/b.png",
    "a b.png",
    'a"b',
    "x".repeat(301),
  ]);
  sameVerdicts("view", DOMAIN_RULES.view, shape.view, ["", "newlogin", "x".repeat(31)]);
});

Deno.test("validate reports the first failing check per field", () => {
  const out = validate(
    { account: "a", nickName: "Good name", password: "short", confirmPassword: "other" },
    {
      account: RULES.account,
      nickName: RULES.nickName,
      password: RULES.password,
      confirmPassword: [sameAs(() => "short")],
    },
  );
  assert.deepEqual(out.account, { key: "validation.tooShort", params: { min: 3 } });
  assert.equal(out.nickName, undefined);
  assert.deepEqual(out.password, { key: "validation.tooShort", params: { min: 8 } });
  assert.deepEqual(out.confirmPassword, { key: "errors.passwordMismatch", plain: true });
  assert.deepEqual(validate({ account: "" }, { account: RULES.account }).account, {
    key: "validation.required",
  });
});

Deno.test("messages read like the server's refusals", () => {
  const en = translator("en");
  assert.equal(
    describe(en, "Login account", { key: "validation.tooShort", params: { min: 3 } }),
    "Login account must be at least 3 characters.",
  );
  assert.equal(
    describe(en, "Confirm password", { key: "errors.passwordMismatch", plain: true }),
    "The two passwords do not match.",
  );
  assert.equal(
    describe(en, "Login account", { key: "validation.required" }),
    "Login account is required.",
  );
  const zh = translator("zh");
  assert.equal(
    describe(zh, "登录账号", { key: "validation.passwordForm" }),
    "登录账号无效（8-50 个字符，须包含字母和数字）。",
  );
});

Deno.test("creatable types follow the caller and the superior", () => {
  assert.deepEqual(creatableTypes(0, 0), [8, 11, 9, 12]);
  assert.deepEqual(creatableTypes(8, 8), [8, 11, 9, 12]);
  assert.deepEqual(creatableTypes(11, 11), [9, 12]);
  assert.deepEqual(creatableTypes(9, 9), [9, 12]);
  assert.deepEqual(creatableTypes(12, 12), []);
  // An administrator adding below a sales account may only add what sales may hold.
  assert.deepEqual(creatableTypes(0, 11), [9, 12]);
  assert.deepEqual(creatableTypes(0, 12), []);
  assert.equal(canCreateAccounts(12), false);
  assert.equal(canCreateAccounts(9), true);
  assert.deepEqual(editableTypes(11, 8), [8, 9, 12]);
});

Deno.test("formatDateTime shows local date and minutes", () => {
  const iso = new Date(2024, 4, 1, 8, 5).toISOString();
  assert.equal(formatDateTime(iso), "2024-05-01 08:05");
  assert.equal(formatDateTime("garbage"), "garbage");
});

const keysOf = (o: unknown, prefix = ""): string[] =>
  Object.entries(o as Record<string, unknown>).flatMap(([k, v]) =>
    typeof v === "object" && v ? keysOf(v, `${prefix}${k}.`) : [`${prefix}${k}`]
  ).sort();

Deno.test("account and domain translations have the same keys in every language", () => {
  for (const area of ["accounts", "domains"] as const) {
    const en = keysOf(RESOURCES.en[area]);
    assert.ok(en.length > 10, `${area} has translations`);
    assert.deepEqual(keysOf(RESOURCES.zh[area]), en, area);
  }
});

const canRead = (await Deno.permissions.query({ name: "read" })).state === "granted";

Deno.test({
  name: "every literal accounts.* / domains.* key used by the UI exists",
  ignore: !canRead,
  fn: async () => {
    const known = new Set(keysOf(RESOURCES.en));
    const files = [
      "../../islands/accounts/AccountManager.tsx",
      "../../islands/domains/DomainEditor.tsx",
      ...["accounts", "domains"].flatMap((dir) =>
        [...Deno.readDirSync(new URL(`../${dir}/`, import.meta.url))]
          .filter((e) => e.name.endsWith(".tsx")).map((e) => `../${dir}/${e.name}`)
      ),
    ];
    for (const f of files) {
      const src = await Deno.readTextFile(new URL(f, import.meta.url));
      for (const [, key] of src.matchAll(/"((?:accounts|domains)\.[A-Za-z.]+[A-Za-z])"/g)) {
        assert.ok(known.has(key), `${f}: missing translation ${key}`);
      }
    }
  },
});

Deno.test("keys built at run time exist too", () => {
  const known = new Set(keysOf(RESOURCES.en));
  const need = [
    ...PERMISSION_FLAGS.map((f) => `accounts.permissions.${f}`),
    ...SCOPE_FLAGS.map((f) => `accounts.virtual.scopes.${f}`),
    ...["edit", "reset", "move", "delete"].map((a) => `accounts.actions.${a}`),
    ...[
      "account",
      "nickName",
      "password",
      "confirmPassword",
      "accountType",
      "contact",
      "phone",
      "email",
      "companyName",
      "expiration",
      "description",
      "nodeId",
      "superior",
      "createdAt",
    ].map((f) => `accounts.fields.${f}`),
    ...Object.keys(DOMAIN_RULES).map((f) => `domains.fields.${f}`),
    ...TYPE_ORDER.map((v) => `shell.accountTypes.${v}`),
    ...NODES.map(([, k]) => `nodes.${k}`),
  ];
  for (const key of need) assert.ok(known.has(key), key);
});
