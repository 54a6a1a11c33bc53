import type { z } from "zod";
import { BizError } from "../errors.ts";

/**
 * Turns the first zod issue into the catalogue's "illegal parameter" refusal, naming the
 * field. The reason is an i18n key (validation.*) with its parameters, so it is translated
 * like every other message.
 */
export function zodRefusal(error: z.ZodError): BizError {
  const issue = error.issues[0];
  // An unknown key is reported on the object that holds it; name the key itself.
  const path = issue.code === "unrecognized_keys" && issue.keys.length
    ? [...issue.path, issue.keys[0]]
    : issue.path;
  const field = path.length ? path.join(".") : "body";
  return new BizError("illegalParameter", { field, ...reasonOf(issue) }, {
    field,
    issues: error.issues.flatMap((i): { path: string; code: string }[] =>
      i.code === "unrecognized_keys"
        ? i.keys.map((k) => ({ path: [...i.path, k].join("."), code: i.code }))
        : [{ path: i.path.join("."), code: i.code }]
    ).slice(0, 10),
  });
}

function reasonOf(issue: z.core.$ZodIssue): Record<string, string | number> {
  const limit = (v: unknown) => (typeof v === "bigint" ? Number(v) : Number(v));
  switch (issue.code) {
    case "too_small":
      return issue.origin === "string"
        ? { reasonKey: "validation.tooShort", min: limit(issue.minimum) }
        : issue.origin === "array"
        ? { reasonKey: "validation.tooFew", min: limit(issue.minimum) }
        : { reasonKey: "validation.tooSmall", min: limit(issue.minimum) };
    case "too_big":
      return issue.origin === "string"
        ? { reasonKey: "validation.tooLong", max: limit(issue.maximum) }
        : issue.origin === "array"
        ? { reasonKey: "validation.tooMany", max: limit(issue.maximum) }
        : { reasonKey: "validation.tooBig", max: limit(issue.maximum) };
    case "invalid_type":
      return isMissing(issue)
        ? { reasonKey: "validation.required" }
        : { reasonKey: "validation.wrongType", expected: String(issue.expected) };
    case "invalid_value": {
      // Name the allowed values when there are few enough to read.
      const values = issue.values.filter((v) => typeof v === "string" || typeof v === "number");
      return values.length && values.length <= 10 && values.length === issue.values.length
        ? { reasonKey: "validation.notOneOf", values: values.join(", ") }
        : { reasonKey: "validation.notAllowed" };
    }
    case "invalid_format":
      // A pattern with its own description (regex(…, "validation.imeiForm")) says what it wants.
      return {
        reasonKey: issue.message.startsWith("validation.")
          ? issue.message
          : `validation.format.${issue.format}`,
      };
    case "unrecognized_keys":
      return { reasonKey: "validation.unknownField" };
    default:
      // Custom refinements carry an i18n key as their message.
      return {
        reasonKey: issue.message.startsWith("validation.") ? issue.message : "validation.invalid",
      };
  }
}

/**
 * A missing value, not one of the wrong type: zod 4 leaves the input out of an issue unless
 * asked to, so its default message ("… received undefined") tells the two apart.
 */
function isMissing(issue: z.core.$ZodIssueInvalidType): boolean {
  if ("input" in issue && issue.input !== undefined) return false;
  return !/received (?!undefined)/.test(issue.message);
}
