import { z } from "zod";
import type { ApiRegistry } from "../../lib/http/api.ts";
import { applyBody, taskListBody, templateBody } from "./schemas.ts";
import type { WorkModeTask } from "./model.ts";
import type { WorkModeRequests } from "./requests.ts";

/** The services these routes use (the composition root passes them). */
export interface WorkModeRouteDeps {
  workModeRequests: WorkModeRequests;
}

function taskJson(t: WorkModeTask) {
  const iso = (v: number | null) => (v === null ? null : new Date(v).toISOString());
  return {
    id: t.id,
    batchNo: t.batchNo,
    imei: t.imei,
    templateName: t.templateName,
    cycle: t.cycle + 1,
    cycles: t.cycles.length,
    state: t.state,
    commandId: t.commandId,
    senderAccount: t.senderAccount,
    cycleStartedAt: iso(t.cycleStartedAt),
    cycleEndsAt: iso(t.cycleEndsAt),
    endReason: t.endReason,
    createdAt: iso(t.createdAt),
    updatedAt: iso(t.updatedAt),
  };
}

export function registerWorkModeRoutes(api: ApiRegistry, s: WorkModeRouteDeps) {
  const tag = "Working modes";
  const rq = s.workModeRequests;

  api.add({
    method: "post",
    path: "/v3/new/workMode/template/list",
    need: "read",
    tag,
    summary: "The account's working-mode templates",
    handler: async ({ c }) => {
      const list = await rq.templates(c.var.session);
      return { list: list.map((t) => ({ ...t, createdAt: new Date(t.createdAt).toISOString() })) };
    },
  });

  api.add({
    method: "post",
    path: "/v3/new/workMode/template/save",
    need: "modifyCommands",
    tag,
    summary:
      "Create or edit a working-mode template (normal, timing, week cycles; ≤ 10 of one name)",
    body: templateBody,
    handler: async ({ body, c }) => ({ id: (await rq.saveTemplate(c.var.session, body)).id }),
  });

  api.add({
    method: "post",
    path: "/v3/new/workMode/template/delete",
    need: "modifyCommands",
    tag,
    summary: "Delete a working-mode template (running tasks keep their copy)",
    body: z.object({ id: z.string().min(1).max(40) }).strict(),
    handler: async ({ body, c }) => {
      await rq.removeTemplate(c.var.session, body.id);
      return null;
    },
  });

  api.add({
    method: "post",
    path: "/v3/new/workMode/apply",
    need: "batchWorkMode",
    tag,
    summary: "Batch working mode: apply a template to devices (isBatchSendFm)",
    body: applyBody,
    handler: ({ body, c }) => rq.apply(c.var.session, body),
  });

  api.add({
    method: "post",
    path: "/v3/new/workMode/tasks",
    need: "read",
    tag,
    summary: "Working-mode tasks with their state (waiting, executing, about to end, ended)",
    body: taskListBody,
    handler: async ({ body, c }) => {
      const page = await rq.tasks(c.var.session, body);
      return { total: page.total, list: page.list.map(taskJson) };
    },
  });
}
