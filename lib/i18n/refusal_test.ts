import assert from "node:assert/strict";
import { z } from "zod";
import { translator } from "./i18n.ts";
import { zodRefusal } from "../http/validation.ts";
import { refusalText } from "../http/respond.ts";
import { BizError } from "../errors.ts";

/** The message the API answers for the first issue of `schema` on `input`. */
function message(lang: "en" | "zh", schema: z.ZodType, input: unknown): string {
  const r = schema.safeParse(input);
  assert.ok(!r.success, "the input is refused");
  return refusalText(translator(lang), zodRefusal(r.error));
}

const body = z.object({
  account: z.string().trim().min(3).max(50),
  seconds: z.number().int().min(10).max(18000),
  email: z.email(),
  unit: z.enum(["km", "mi"]),
  imeis: z.array(z.string()).min(1).max(2),
  sim: z.string().regex(/^\d+$/),
  imei: z.string().regex(/^\d{15}$/, "validation.imeiForm"),
}).strict();
const good = {
  account: "fleet1",
  seconds: 30,
  email: "a@b.cn",
  unit: "km",
  imeis: ["1"],
  sim: "123",
  imei: "359710049000033",
};
const bad = (patch: Record<string, unknown>) => ({ ...good, ...patch });

Deno.test("refusals read as sentences naming the field, per kind of issue (English)", () => {
  const cases: [Record<string, unknown>, string][] = [
    [{ account: undefined }, "Login account is required."],
    [{ account: "ab" }, "Login account must be at least 3 characters."],
    [{ account: "x".repeat(51) }, "Login account must be at most 50 characters."],
    [{ seconds: 5 }, "Interval (seconds) must be at least 10."],
    [{ seconds: 20000 }, "Interval (seconds) must be at most 18000."],
    [{ seconds: "30" }, "Interval (seconds) must be of type number."],
    [{ email: "nope" }, "Email is not a valid email address."],
    [{ unit: "yards" }, "Unit must be one of: km, mi."],
    [{ imeis: [] }, "IMEIs needs at least 1 items."],
    [{ imeis: ["1", "2", "3"] }, "IMEIs can have at most 2 items."],
    [{ sim: "12a" }, "SIM card has the wrong format."],
    [{ imei: "123" }, "IMEI is not valid (15 digits)."],
    [{ extra: 1 }, "Extra is not a field this request takes."],
  ];
  for (const [patch, want] of cases) {
    assert.equal(message("en", body, bad(patch)), want, JSON.stringify(patch));
  }
});

Deno.test("refusals read as sentences in Chinese too", () => {
  assert.equal(message("zh", body, bad({ account: undefined })), "请填写登录账号。");
  assert.equal(message("zh", body, bad({ account: "ab" })), "登录账号至少需要 3 个字符。");
  assert.equal(message("zh", body, bad({ seconds: 5 })), "间隔（秒）不能小于 10。");
  // Every field a route takes has a Chinese label (tests/integration/field_labels_test.ts),
  // `unit` included since the wallet's and reminders' routes take it.
  assert.equal(message("zh", body, bad({ unit: "yards" })), "单位必须是以下之一：km, mi。");
  assert.equal(message("zh", body, bad({ email: "x" })), "邮箱不是有效的邮箱地址。");
});

Deno.test("refusals built by hand: a field path's last name, a reason without a key", () => {
  const en = translator("en");
  const nested = new BizError("illegalParameter", {
    field: "params.seconds",
    reasonKey: "validation.tooBig",
    max: 18000,
  });
  assert.equal(refusalText(en, nested), "Interval (seconds) must be at most 18000.");
  assert.equal(refusalText(translator("zh"), nested), "间隔（秒）不能大于 18000。");
  const bare = new BizError("illegalParameter", { field: "deviceName" });
  assert.equal(refusalText(en, bare), "Device name is not valid.");
  // Not an illegal parameter: the catalogue text as before.
  assert.equal(refusalText(en, new BizError("permissionDenied")), "Permission denied.");
});
