/**
 * What the working-mode API asks for, with its rules: who may change templates
 * (modifyCommandFlag), who may apply them (instructions flag and isBatchSendFm), which
 * devices a batch reaches, what goes into the operation log. Session in, record out.
 */
import type { z } from "zod";
import { BizError } from "../../lib/errors.ts";
import type { Session } from "../../lib/http/env.ts";
import type { AccessGuard } from "../accounts/access.ts";
import type { AccountLookup } from "../accounts/model.ts";
import { batchSummary } from "../commands/batch.ts";
import type { OperationLog } from "../commands/oplog.ts";
import { assertMaySend, templateEditor } from "../commands/policy.ts";
import { batchTargets } from "../commands/targets.ts";
import type { DeviceDirectory } from "../devices/directory.ts";
import type { WorkModeTask, WorkModeTemplate } from "./model.ts";
import type { applyBody, taskListBody, templateBody } from "./schemas.ts";
import type { WorkModeService } from "./service.ts";
import type { WorkModeStore } from "./store.ts";

export interface WorkModeRequestDeps {
  access: AccessGuard;
  accountStore: AccountLookup;
  directory: DeviceDirectory;
  store: WorkModeStore;
  workModes: WorkModeService;
  oplog: OperationLog;
}

export class WorkModeRequests {
  constructor(private readonly s: WorkModeRequestDeps) {}

  /** Batch working mode has its own flag (isBatchSendFm) beside the instructions one. */
  private async applier(session: Session) {
    const { self, owner } = await this.s.access.caller(session);
    assertMaySend(self, owner, false);
    if (owner.permissions.isBatchSendFm !== 1) throw new BizError("batchSendNotAllowed");
    return { self, owner };
  }

  async templates(session: Session): Promise<WorkModeTemplate[]> {
    const { owner } = await this.s.access.caller(session);
    return this.s.store.templates(owner.id);
  }

  async saveTemplate(session: Session, body: z.infer<typeof templateBody>) {
    const who = await templateEditor(this.s.access, session);
    const t = await this.s.workModes.saveTemplate(who.owner.id, body);
    await this.s.oplog.write(who, {
      action: "workModeSave",
      target: t.name,
      detail: `${t.cycles.length}`,
    });
    return t;
  }

  /** Deletes a template (running tasks keep their copy). */
  async removeTemplate(session: Session, id: string): Promise<void> {
    const who = await templateEditor(this.s.access, session);
    const t = await this.s.store.template(who.owner.id, id);
    if (!t) throw new BizError("templateNotFound");
    await this.s.store.removeTemplate(who.owner.id, id);
    await this.s.oplog.write(who, { action: "workModeDelete", target: t.name, detail: "" });
  }

  async apply(session: Session, body: z.infer<typeof applyBody>) {
    const who = await this.applier(session);
    const template = await this.s.store.template(who.owner.id, body.templateId);
    if (!template) throw new BizError("templateNotFound");
    const { devices, rejected } = await batchTargets(this.s, session, body.imeis);
    if (!devices.length) throw new BizError("noDevicesChosen", {}, { rejected });
    const { batch, records } = await this.s.workModes.apply(template, devices, body, {
      id: who.self.id,
      account: who.self.account,
      ownerId: who.owner.id,
    });
    await this.s.oplog.write(who, {
      action: "workModeApply",
      target: batch.batchNo,
      detail: `${template.name} × ${devices.length}`,
    });
    return batchSummary(batch, records, rejected);
  }

  /** The caller's account's tasks matching the filter, and how many there are. */
  async tasks(
    session: Session,
    q: z.infer<typeof taskListBody>,
  ): Promise<{ total: number; list: WorkModeTask[] }> {
    const { owner } = await this.s.access.caller(session);
    const { pageNum, pageSize, ...f } = q;
    const all = await this.s.store.tasks(owner.id, f);
    return { total: all.length, list: all.slice((pageNum - 1) * pageSize, pageNum * pageSize) };
  }
}
