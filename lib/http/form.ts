import type { Context } from "hono";
import { BizError } from "../errors.ts";
import type { AppEnv } from "./env.ts";

/** The refusal of a body that is not a readable multipart form. */
const notMultipart = () =>
  new BizError("illegalParameter", { field: "body", reasonKey: "validation.multipart" });

/** Control characters (NUL, CR, LF…) have no place in a file or field name. */
// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * Reads a multipart upload, turning every way it can be malformed (a JSON or empty body,
 * no boundary, a broken part, a NUL in a name) into the catalogue's "illegal parameter"
 * refusal instead of the TypeError the platform's parser throws. Hono caches the parsed
 * form, so a handler calling `c.req.formData()` afterwards gets this same form.
 */
export async function readForm(c: Context<AppEnv>): Promise<FormData> {
  const type = (c.req.header("content-type") ?? "").toLowerCase();
  if (!type.startsWith("multipart/form-data") || !/;\s*boundary=/.test(type)) {
    throw notMultipart();
  }
  let form: FormData;
  try {
    form = await c.req.formData();
  } catch {
    throw notMultipart();
  }
  for (const [name, value] of form.entries()) {
    const fileName = value instanceof File ? value.name : "";
    if (CONTROL.test(name) || CONTROL.test(fileName)) {
      throw new BizError("illegalParameter", {
        field: CONTROL.test(name) ? "body" : name,
        reasonKey: "validation.fileName",
      });
    }
  }
  return form;
}
