import { z } from "zod";
import { BizError } from "../../lib/errors.ts";
import type { ApiRegistry } from "../../lib/http/api.ts";
import type { Session } from "../../lib/http/env.ts";
import { assertMaySend, templateEditor } from "../commands/policy.ts";
import type { Account } from "../accounts/model.ts";
import { batchTargets, type TargetDeps } from "../commands/targets.ts";
import { batchSummary } from "../commands/batch.ts";
import { operationLogger } from "../commands/oplog.ts";
import { applyBody, taskListBody, templateBody } from "./schemas.ts";
import type { WorkModeTask } from "./model.ts";
import type { AccessGuard } from "../accounts/access.ts";
import type { CommandStore } from "../commands/store.ts";
import type { WorkModeService } from "./service.ts";
import type { WorkModeStore } from "./store.ts";

/** The services these routes use (the composition root passes them). */
export interface WorkModeRouteDeps extends TargetDeps {
  access: AccessGuard;
  commandStore: CommandStore;
  workModeStore: WorkModeStore;
  workModes: WorkModeService;
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
  const caller = async (session: Session, batch: boolean) => {
    const { self, owner } = await s.access.caller(session);
    assertMaySend(self, owner, false);
    // Batch working mode has its own flag (isBatchSendFm) beside the instructions one.
    if (batch && owner.permissions.isBatchSendFm !== 1) throw new BizError("batchSendNotAllowed");
    return { self, owner };
  };
  const editor = (session: Session) => templateEditor(s.access, session);

  const log = (
    who: { self: Account; owner: Account },
    action: "workModeSave" | "workModeDelete" | "workModeApply",
    target: string,
    detail: string,
  ) => operationLogger(s.commandStore, who)({ action, target, detail });

  api.add({
    method: "post",
    path: "/v3/new/workMode/template/list",
    need: "read",
    tag,
    summary: "The account's working-mode templates",
    handler: async ({ c }) => {
      const { owner } = await s.access.caller(c.var.session);
      const list = await s.workModeStore.templates(owner.id);
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
    handler: async ({ body, c }) => {
      const who = await editor(c.var.session);
      const t = await s.workModes.saveTemplate(who.owner.id, body);
      await log(who, "workModeSave", t.name, `${t.cycles.length}`);
      return { id: t.id };
    },
  });

  api.add({
    method: "post",
    path: "/v3/new/workMode/template/delete",
    need: "modifyCommands",
    tag,
    summary: "Delete a working-mode template (running tasks keep their copy)",
    body: z.object({ id: z.string().min(1).max(40) }).strict(),
    handler: async ({ body, c }) => {
      const who = await editor(c.var.session);
      const t = await s.workModeStore.template(who.owner.id, body.id);
      if (!t) throw new BizError("templateNotFound");
      await s.workModeStore.removeTemplate(who.owner.id, body.id);
      await log(who, "workModeDelete", t.name, "");
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
    handler: async ({ body, c }) => {
      const who = await caller(c.var.session, true);
      const template = await s.workModeStore.template(who.owner.id, body.templateId);
      if (!template) throw new BizError("templateNotFound");
      const { devices, rejected } = await batchTargets(s, c.var.session, body.imeis);
      if (!devices.length) throw new BizError("noDevicesChosen", {}, { rejected });
      const { batch, records } = await s.workModes.apply(template, devices, body, {
        id: who.self.id,
        account: who.self.account,
        ownerId: who.owner.id,
      });
      await log(who, "workModeApply", batch.batchNo, `${template.name} × ${devices.length}`);
      return batchSummary(batch, records, rejected);
    },
  });

  api.add({
    method: "post",
    path: "/v3/new/workMode/tasks",
    need: "read",
    tag,
    summary: "Working-mode tasks with their state (waiting, executing, about to end, ended)",
    body: taskListBody,
    handler: async ({ body, c }) => {
      const { owner } = await s.access.caller(c.var.session);
      const { pageNum, pageSize, ...f } = body;
      const all = await s.workModeStore.tasks(owner.id, f);
      return {
        total: all.length,
        list: all.slice((pageNum - 1) * pageSize, pageNum * pageSize).map(taskJson),
      };
    },
  });
}
