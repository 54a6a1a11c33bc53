import { z } from "zod";
import type { ApiRegistry } from "../../lib/http/api.ts";
import { pageFields } from "../accounts/schemas.ts";
import { IMPORTANCE, MAX_BODY, MAX_TITLE } from "./model.ts";
import type { AnnouncementService } from "./service.ts";

/** The services these routes use (the composition root passes them). */
export interface AnnouncementRouteDeps {
  announcements: AnnouncementService;
}

/** Spec console §7: the pop-up window check (method not shown: GET and POST answer alike). */
export const SHOW_WINDOW_PATH = "/tsp2/tsp-asset/account/showWindow/";

const isoTime = z.string().datetime({ offset: true });
const announcementId = z.string().regex(/^[0-9a-z]{17,40}$/, "validation.invalid");
export const announcementBody = z.object({
  title: z.string().trim().min(1).max(MAX_TITLE),
  body: z.string().trim().min(1).max(MAX_BODY),
  importance: z.enum(IMPORTANCE).default("normal"),
  startTime: isoTime,
  endTime: isoTime,
}).strict();

export function registerAnnouncementRoutes(api: ApiRegistry, s: AnnouncementRouteDeps) {
  const tag = "Announcements";
  const svc = s.announcements;
  api.add({
    method: "post",
    path: "/v3/new/announcement/add",
    need: "manageAccounts",
    tag,
    summary:
      "Post an announcement to the caller's subtree (administrators and distributors): title, body ≤ 2000, period, importance",
    body: announcementBody,
    handler: ({ body, c }) => svc.post(c.var.session, body),
  });
  api.add({
    method: "post",
    path: "/v3/new/announcement/list",
    need: "read",
    tag,
    summary:
      "The caller's own announcements and those received from its superiors that have started, newest first",
    body: z.object(pageFields).strict(),
    handler: async ({ body, c }) => {
      const all = await svc.list(c.var.session);
      const from = (body.pageNum - 1) * body.pageSize;
      return { total: all.length, list: all.slice(from, from + body.pageSize) };
    },
  });
  api.add({
    method: "post",
    path: "/v3/new/announcement/delete",
    need: "manageAccounts",
    tag,
    summary: "Delete one of the caller's own announcements",
    body: z.object({ id: announcementId }).strict(),
    handler: async ({ body, c }) => {
      await svc.delete(c.var.session, body.id);
      return null;
    },
  });
  api.add({
    method: "post",
    path: "/v3/new/announcement/seen",
    need: "self",
    tag,
    summary: "Mark received announcements seen by the logged-in user (the pop-up shows them once)",
    body: z.object({ ids: z.array(announcementId).min(1).max(100) }).strict(),
    handler: async ({ body, c }) => {
      await svc.markSeen(c.var.session, body.ids);
      return null;
    },
  });
  for (const method of ["get", "post"] as const) {
    api.add({
      method,
      path: SHOW_WINDOW_PATH,
      need: "read",
      tag,
      summary: "The pop-up window check: data {show, announcements} — current ones not seen yet",
      ...(method === "post" ? { body: z.object({}).strict() } : {}),
      handler: ({ c }) => svc.showWindow(c.var.session),
    });
  }
}
