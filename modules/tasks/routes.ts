/** The task centre's API: a user's own background tasks and their files. */
import { z } from "zod";
import type { ApiRegistry } from "../../lib/http/api.ts";
import type { TaskService } from "./service.ts";

/** The services these routes use (the composition root passes them). */
export interface TaskRouteDeps {
  tasks: TaskService;
}

const listBody = z.strictObject({
  type: z.string().trim().min(1).max(40).optional(),
  pageNum: z.number().int().min(1).max(100_000).default(1),
  pageSize: z.number().int().min(1).max(100).default(20),
});

const downloadQuery = z.strictObject({
  id: z.string().trim().min(1).max(64),
});

export function registerTaskRoutes(api: ApiRegistry, s: TaskRouteDeps) {
  const tag = "Tasks";
  api.add({
    method: "post",
    path: "/v3/new/task/list",
    need: "read",
    tag,
    summary: "The caller's own background tasks (report exports), newest first; paged",
    body: listBody,
    handler: ({ body, c }) => s.tasks.list(c.var.session.accountId, body),
  });
  api.add({
    method: "get",
    path: "/v3/new/task/download",
    need: "read",
    tag,
    summary: "The file of one of the caller's finished tasks, streamed",
    query: downloadQuery,
    produces: "application/octet-stream",
    handler: async ({ query, c }) => {
      const file = await s.tasks.file(c.var.session.accountId, query.id);
      return new Response(file.body, {
        headers: {
          "content-type": file.contentType,
          "content-length": String(file.bytes),
          "content-disposition": contentDisposition(file.fileName),
          "cache-control": "private, no-store",
        },
      });
    },
  });
}

/**
 * `attachment` with an ASCII fallback name and the real name in RFC 5987 form, so a
 * Chinese file name survives every browser.
 */
export function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
