import { z } from "zod";
import { BizError } from "../../lib/errors.ts";
import type { ApiRegistry } from "../../lib/http/api.ts";
import { DOC_KINDS, DOC_TYPES, MAX_DOC_BYTES, MAX_TITLE } from "./model.ts";
import { cleanFileName, type ManualService } from "./service.ts";

/** The services these routes use (the composition root passes them). */
export interface ManualRouteDeps {
  manuals: ManualService;
}

/** The upload route; app/app.ts gives it a body limit above the JSON one. */
export const MANUAL_UPLOAD_PATH = "/v3/new/manual/upload";
/** Room above the document limit for the form framing, so an oversize file gets its own refusal. */
export const MANUAL_UPLOAD_BODY_LIMIT = MAX_DOC_BYTES + 1024 * 1024;

const docId = z.string().regex(/^[0-9a-z]{17,40}$/, "validation.invalid");
const field = (name: string, reasonKey: string) =>
  new BizError("illegalParameter", { field: name, reasonKey });

export function registerManualRoutes(api: ApiRegistry, s: ManualRouteDeps) {
  const tag = "Help";
  api.add({
    method: "post",
    path: MANUAL_UPLOAD_PATH,
    need: "manageAccounts",
    tag,
    summary:
      "Upload the user manual or an API document (administrator; multipart: kind, title?, file): pdf, doc, docx, ppt, pptx, txt or zip by content, at most 50 MB",
    form: z.object({
      kind: z.enum(DOC_KINDS),
      title: z.string().max(MAX_TITLE).optional(),
      file: z.file().max(MAX_DOC_BYTES).describe(
        `The document (${Object.keys(DOC_TYPES).join(", ")}); its type is checked by content`,
      ),
    }),
    handler: async ({ c }) => {
      // Refused before the file is looked at or stored, whatever it holds.
      await s.manuals.assertAdmin(c.var.session);
      const form = await c.req.formData();
      const kind = z.enum(DOC_KINDS).safeParse(form.get("kind"));
      if (!kind.success) throw field("kind", "validation.invalid");
      const title = z.string().trim().max(MAX_TITLE).safeParse(form.get("title") ?? "");
      if (!title.success) throw field("title", "validation.invalid");
      const file = form.get("file");
      if (!(file instanceof File) || file.size === 0) throw field("file", "validation.required");
      return await s.manuals.upload(c.var.session, {
        kind: kind.data,
        title: title.data,
        fileName: cleanFileName(file.name),
        bytes: new Uint8Array(await file.arrayBuffer()),
      });
    },
  });
  api.add({
    method: "post",
    path: "/v3/new/manual/list",
    need: "read",
    tag,
    summary: "The user manual and API documents (every user)",
    body: z.object({}).strict(),
    handler: async () => ({ list: await s.manuals.list() }),
  });
  api.add({
    method: "get",
    path: "/v3/new/manual/download",
    need: "read",
    tag,
    summary:
      "A document's file (content-disposition with its name); inline=1 shows a PDF or text in the browser",
    query: z.object({ id: docId, inline: z.enum(["0", "1"]).optional() }).strict(),
    produces: "application/octet-stream",
    handler: ({ query }) => s.manuals.download(query.id, query.inline === "1"),
  });
  api.add({
    method: "post",
    path: "/v3/new/manual/delete",
    need: "manageAccounts",
    tag,
    summary: "Delete a document (administrator)",
    body: z.object({ id: docId }).strict(),
    handler: async ({ body, c }) => {
      await s.manuals.delete(c.var.session, body.id);
      return null;
    },
  });
}
