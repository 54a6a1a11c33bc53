/**
 * Command templates (spec: ≤ 5 per account, name ≤ 20 and unique): who may change them
 * (modifyCommandFlag), the parameters checked against the instruction, the log entry.
 */
import type { z } from "zod";
import { BizError } from "../../lib/errors.ts";
import type { Session } from "../../lib/http/env.ts";
import type { AccessGuard } from "../accounts/access.ts";
import { DEVICE_MODELS } from "../devices/models.ts";
import { buildInstruction, instructionsFor } from "./catalogue/index.ts";
import type { OperationLog } from "./oplog.ts";
import { templateEditor } from "./policy.ts";
import { TEMPLATE_LIMIT, type templateBody } from "./schemas.ts";
import type { TemplateStore } from "./store.ts";
import type { CommandTemplate } from "./types.ts";

export class CommandTemplates {
  constructor(
    private readonly store: TemplateStore,
    private readonly access: AccessGuard,
    private readonly oplog: OperationLog,
  ) {}

  async list(session: Session): Promise<CommandTemplate[]> {
    const { owner } = await this.access.caller(session);
    return this.store.list(owner.id);
  }

  /** Creates or edits a template; its id. */
  async save(session: Session, body: z.infer<typeof templateBody>): Promise<string> {
    const who = await templateEditor(this.access, session);
    const ownerId = who.owner.id;
    // Validate parameters against the instruction itself (any model that has it).
    const model = DEVICE_MODELS.find((m) =>
      instructionsFor(m.mcType).some((i) => i.code === body.code)
    );
    if (!model) throw new BizError("commandUnsupported");
    buildInstruction(model.mcType, body.code, body.params);
    const all = await this.store.list(ownerId);
    const existing = body.id ? all.find((t) => t.id === body.id) : null;
    if (body.id && !existing) throw new BizError("templateNotFound");
    if (all.some((t) => t.name === body.name && t.id !== body.id)) {
      throw new BizError("commandTemplateNameExists", { name: body.name });
    }
    if (!existing && all.length >= TEMPLATE_LIMIT) {
      throw new BizError("commandTemplateLimit", { max: TEMPLATE_LIMIT });
    }
    const t = {
      id: existing?.id ?? crypto.randomUUID(),
      ownerId,
      name: body.name,
      code: body.code,
      params: body.params,
      createdAt: existing?.createdAt ?? Date.now(),
    };
    await this.store.save(t);
    await this.oplog.write(who, { action: "templateSave", target: t.name, detail: t.code });
    return t.id;
  }

  async remove(session: Session, id: string): Promise<void> {
    const who = await templateEditor(this.access, session);
    const t = await this.store.get(who.owner.id, id);
    if (!t || !(await this.store.remove(who.owner.id, id))) throw new BizError("templateNotFound");
    await this.oplog.write(who, { action: "templateDelete", target: t.name, detail: t.code });
  }
}
