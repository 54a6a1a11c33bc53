import { z } from "zod";
import { BizError } from "../../lib/errors.ts";
import type { ApiRegistry } from "../../lib/http/api.ts";
import type { Session } from "../../lib/http/env.ts";
import { translator } from "../../lib/i18n/i18n.ts";
import { pageFields } from "../accounts/schemas.ts";
import type { Device } from "../devices/model.ts";
import type { Account } from "../accounts/model.ts";
import { DEVICE_MODELS } from "../devices/models.ts";
import {
  buildInstruction,
  type InstructionCode,
  INSTRUCTIONS,
  instructionsFor,
  requiresPassword,
} from "./catalogue/index.ts";
import { batchSummary, instructionItems } from "./batch.ts";
import { operationLogger } from "./oplog.ts";
import { batchTargets, type TargetDeps } from "./targets.ts";
import { assertCommandPassword, assertMaySend, templateEditor } from "./policy.ts";
import { protectedInstruction } from "./rule_commands.ts";
import {
  batchSendBody,
  exportQuery,
  imei,
  sendInstructionBody,
  statusBody,
  TEMPLATE_LIMIT,
  templateBody,
} from "./schemas.ts";
import { commandJson, commandsCsv, commandsXlsx, findCommands } from "./status.ts";
import { XLSX_TYPE } from "../devices/sheets.ts";
import type { AccessGuard } from "../accounts/access.ts";
import type { PasswordChecks } from "../auth/confirm.ts";
import type { DeviceService } from "../devices/service.ts";
import type { BatchSender } from "./batch.ts";
import type { CommandService } from "./service.ts";
import type { CommandStore, TemplateStore } from "./store.ts";

/** The services these routes use (the composition root passes them). */
export interface CommandRouteDeps extends TargetDeps {
  access: AccessGuard;
  batches: BatchSender;
  commandStore: CommandStore;
  commandTemplates: TemplateStore;
  commands: CommandService;
  devices: DeviceService;
  passwordChecks: PasswordChecks;
}

export function registerCommandRoutes(api: ApiRegistry, s: CommandRouteDeps) {
  const tag = "Commands";
  /** The caller, allowed to change templates. */
  const editor = (session: Session) => templateEditor(s.access, session);

  /** The caller, checked against the send permissions; sender fields for records. */
  const sender = async (session: Session, batch: boolean) => {
    const { self, owner } = await s.access.caller(session);
    assertMaySend(self, owner, batch);
    return { self, owner, sender: { id: self.id, account: self.account, ownerId: owner.id } };
  };
  const log = (
    who: { self: Account; owner: Account },
    e: Parameters<ReturnType<typeof operationLogger>>[0],
  ) => operationLogger(s.commandStore, who)(e);
  /**
   * Refuses a protected instruction unless the login password confirms it, also when it comes
   * as free text (`DYD,000000#` typed as a custom or plain text command).
   */
  const confirmPassword = async (
    who: Awaited<ReturnType<typeof sender>>,
    devices: Device[],
    code: InstructionCode | "text",
    password: string | undefined,
    text = "",
  ) => {
    const needs = (d: Device) =>
      (code !== "text" && requiresPassword(d.mcType, code)) ||
      (text !== "" && protectedInstruction(text, d.mcType) !== null);
    if (devices.some(needs)) {
      await assertCommandPassword(s.passwordChecks, who.self, password);
    }
  };

  api.add({
    method: "post",
    path: "/v3/new/command/send",
    need: "sendCommands",
    tag,
    summary:
      "Send a text command now (online) or when the device next connects (offline, one pending per device)",
    body: z.object({
      imei,
      content: z.string().trim().min(1).max(500),
      sendType: z.enum(["online", "offline"]),
      /** Confirms replacing the device's pending offline command. */
      replace: z.boolean().default(false),
      /** The login password, when the text is a protected instruction (e.g. engine cut). */
      password: z.string().max(100).optional(),
    }).strict(),
    handler: async ({ body, c }) => {
      const who = await sender(c.var.session, false);
      const device = await s.devices.visibleDevice(c.var.session, body.imei);
      await confirmPassword(who, [device], "text", body.password, body.content);
      const record = await s.commands.send(
        { device, content: body.content, sendType: body.sendType, replace: body.replace },
        who.sender,
      ).catch(async (e) => {
        await log(who, {
          action: "send",
          target: body.imei,
          detail: body.content,
          result: "failed",
        });
        throw e;
      });
      await log(who, { action: "send", target: body.imei, detail: body.content, result: "ok" });
      return { id: record.id, status: record.status };
    },
  });

  api.add({
    method: "get",
    path: "/v3/new/command/catalogue",
    need: "read",
    tag,
    summary: "Every instruction with its parameters, and the instructions of each device model",
    handler: () => ({
      instructions: Object.values(INSTRUCTIONS),
      models: DEVICE_MODELS.map((m) => ({
        mcType: m.mcType,
        name: m.name,
        instructions: instructionsFor(m.mcType).map((i) => ({
          code: i.code,
          passwordRequired: i.passwordRequired,
        })),
      })),
    }),
  });

  api.add({
    method: "get",
    path: "/v3/new/command/instructions",
    need: "read",
    tag,
    summary: "The instructions a device (or a model) accepts; 43004 when it has none",
    query: z.object({ imei: imei.optional(), mcType: z.string().max(40).optional() }).strict()
      .refine((q) => q.imei || q.mcType, { message: "validation.required", path: ["imei"] }),
    handler: async ({ query, c }) => {
      const mcType = query.imei
        ? (await s.devices.visibleDevice(c.var.session, query.imei)).mcType
        : query.mcType!;
      const list = instructionsFor(mcType);
      if (!list.length) throw new BizError("modelHasNoInstructions");
      return { mcType, instructions: list };
    },
  });

  api.add({
    method: "post",
    path: "/v3/new/command/batchInstructions",
    need: "read",
    tag,
    summary:
      "For devices chosen for a batch: their models, and how many of them accept each instruction",
    body: z.object({ imeis: batchSendBody.shape.imeis }).strict(),
    handler: async ({ body, c }) => {
      const { devices, rejected } = await batchTargets(s, c.var.session, body.imeis);
      const models = new Map<string, number>();
      for (const d of devices) models.set(d.mcType, (models.get(d.mcType) ?? 0) + 1);
      const accepted = new Map<string, { devices: number; passwordRequired: boolean }>();
      for (const [mcType, n] of models) {
        for (const i of instructionsFor(mcType)) {
          const a = accepted.get(i.code) ?? { devices: 0, passwordRequired: false };
          accepted.set(i.code, {
            devices: a.devices + n,
            passwordRequired: a.passwordRequired || i.passwordRequired,
          });
        }
      }
      return {
        devices: devices.length,
        rejected: rejected.length,
        models: [...models].map(([mcType, count]) => ({ mcType, count })),
        instructions: [...accepted].map(([code, a]) => ({ code, ...a })),
      };
    },
  });

  api.add({
    method: "post",
    path: "/v3/new/command/sendInstruction",
    need: "sendCommands",
    tag,
    summary: "Send a catalogue instruction with typed parameters to one device",
    body: sendInstructionBody,
    handler: async ({ body, c }) => {
      const who = await sender(c.var.session, false);
      const device = await s.devices.visibleDevice(c.var.session, body.imei);
      const built = buildInstruction(device.mcType, body.code, body.params);
      const text = body.code === "custom" ? built.content : "";
      await confirmPassword(who, [device], body.code, body.password, text);
      const detail = built.content;
      try {
        const record = await s.commands.send({
          device,
          name: body.code,
          content: built.content,
          native: built.encoding.kind === "text" ? null : built.encoding,
          sendType: body.sendType,
          replace: body.replace,
        }, who.sender);
        await log(who, { action: "send", target: body.imei, detail, result: "ok" });
        return { id: record.id, status: record.status, content: record.content };
      } catch (e) {
        await log(who, { action: "send", target: body.imei, detail, result: "failed" });
        throw e;
      }
    },
  });

  api.add({
    method: "post",
    path: "/v3/new/command/batchSend",
    need: "batchSendCommands",
    tag,
    summary:
      "Send one instruction to many devices (isBatchSendIns; instructionsFlag for virtual users)",
    body: batchSendBody,
    handler: async ({ body, c }) => {
      const who = await sender(c.var.session, true);
      const { devices, rejected } = await batchTargets(s, c.var.session, body.imeis);
      if (!devices.length) throw new BizError("noDevicesChosen", {}, { rejected });
      // Validate the parameters once up front so a typo refuses the whole batch.
      const model = devices.find((d) =>
        instructionsFor(d.mcType).some((x) => x.code === body.code)
      );
      if (!model) throw new BizError("commandUnsupported");
      buildInstruction(model.mcType, body.code, body.params);
      await confirmPassword(
        who,
        devices,
        body.code,
        body.password,
        body.code === "custom" ? String(body.params.text ?? "") : "",
      );
      const { batch, records } = await s.batches.send({
        category: "command",
        name: body.code,
        content: buildInstruction(model.mcType, body.code, body.params).content,
        items: instructionItems(devices, body.code, body.params),
        sendType: body.sendType,
        replace: body.replace,
      }, who.sender);
      await log(who, {
        action: "batchSend",
        target: batch.batchNo,
        detail: `${body.code} × ${devices.length}`,
        result: "ok",
      });
      return batchSummary(batch, records, rejected);
    },
  });

  api.add({
    method: "post",
    path: "/v3/new/command/batchList",
    need: "read",
    tag,
    summary: "The account's command batches: batch number, category, device count, sender",
    body: z.object({ ...pageFields, category: z.enum(["command", "workMode"]).default("command") })
      .strict(),
    handler: async ({ body, c }) => {
      const { owner } = await s.access.caller(c.var.session);
      const page = await s.commandStore.listBatches(
        owner.id,
        body.category,
        body.pageNum,
        body.pageSize,
      );
      return {
        total: page.total,
        list: page.list.map((b) => ({ ...b, createdAt: new Date(b.createdAt).toISOString() })),
      };
    },
  });

  api.add({
    method: "post",
    path: "/v3/new/command/batchDetail",
    need: "read",
    tag,
    summary: "A batch with its per-device results and counts per status",
    body: z.object({ batchNo: z.string().trim().min(1).max(40) }).strict(),
    handler: async ({ body, c }) => {
      const { owner } = await s.access.caller(c.var.session);
      const batch = await s.commandStore.getBatch(body.batchNo);
      if (!batch || batch.ownerId !== owner.id) throw new BizError("dataNotExists");
      const list = (await s.commandStore.batchCommands(batch.batchNo))
        .sort((a, b) => a.imei.localeCompare(b.imei));
      const counts: Record<string, number> = {};
      for (const r of list) counts[r.status] = (counts[r.status] ?? 0) + 1;
      return {
        batch: { ...batch, createdAt: new Date(batch.createdAt).toISOString() },
        counts,
        list: list.map(commandJson),
      };
    },
  });

  api.add({
    method: "post",
    path: "/v3/new/command/status",
    need: "read",
    tag,
    summary: "Every command of the account with status, phases and reply; filtered and paged",
    body: statusBody,
    handler: async ({ body, c }) => {
      const { owner } = await s.access.caller(c.var.session);
      const { pageNum, pageSize, ...filter } = body;
      const found = await findCommands(s.commandStore, owner.id, filter, pageNum * pageSize);
      return {
        total: found.total,
        list: found.list.slice((pageNum - 1) * pageSize).map(commandJson),
      };
    },
  });

  api.add({
    method: "get",
    path: "/v3/new/command/status/export",
    need: "read",
    tag,
    summary:
      "The filtered command status list as xlsx (default) or CSV (format=csv); up to 5000 rows, spec export limit",
    query: exportQuery,
    handler: async ({ query, c }) => {
      const { owner } = await s.access.caller(c.var.session);
      const { lang, format, ...filter } = query;
      const found = await findCommands(s.commandStore, owner.id, filter, 5000);
      const t = translator(lang);
      const name = `commands-${new Date().toISOString().slice(0, 10)}.${format}`;
      const csv = format === "csv";
      return new Response(csv ? commandsCsv(found.list, t) : await commandsXlsx(found.list, t), {
        headers: {
          "content-type": csv ? "text/csv; charset=utf-8" : XLSX_TYPE,
          "content-disposition": `attachment; filename="${name}"`,
        },
      });
    },
  });

  api.add({
    method: "post",
    path: "/v3/new/command/list",
    need: "read",
    tag,
    summary: "A device's commands, newest first, with status and the device's reply",
    body: z.object({ imei, ...pageFields }).strict(),
    handler: async ({ body, c }) => {
      await s.devices.visibleDevice(c.var.session, body.imei);
      const page = await s.commandStore.listForDevice(body.imei, body.pageNum, body.pageSize);
      return { total: page.total, list: page.list.map(commandJson) };
    },
  });

  api.add({
    method: "post",
    path: "/v3/new/command/cancel",
    need: "sendCommands",
    tag,
    summary: "Cancel a device's pending offline command",
    body: z.object({ imei }).strict(),
    handler: async ({ body, c }) => {
      const who = await sender(c.var.session, false);
      await s.devices.visibleDevice(c.var.session, body.imei);
      const cancelled = await s.commands.cancel(body.imei);
      if (!cancelled) throw new BizError("dataNotExists");
      await log(who, {
        action: "cancel",
        target: body.imei,
        detail: cancelled.content,
        result: "ok",
      });
      return { id: cancelled.id, status: cancelled.status };
    },
  });

  api.add({
    method: "post",
    path: "/v3/new/command/cancelAll",
    need: "sendCommands",
    tag,
    summary: "Cancel every pending offline command the account has sent",
    handler: async ({ c }) => {
      const who = await sender(c.var.session, false);
      const done = await s.commands.cancelAll(who.owner.id);
      await log(who, {
        action: "cancelAll",
        target: "*",
        detail: String(done.length),
        result: "ok",
      });
      return { cancelled: done.length };
    },
  });

  api.add({
    method: "post",
    path: "/v3/new/command/operationLog",
    need: "read",
    tag,
    summary: "Command and operation log: who sent, cancelled or changed what, when, with result",
    body: z.object(pageFields).strict(),
    handler: async ({ body, c }) => {
      const { owner } = await s.access.caller(c.var.session);
      const page = await s.commandStore.listLog(owner.id, body.pageNum, body.pageSize);
      return {
        total: page.total,
        list: page.list.map((e) => ({ ...e, at: new Date(e.at).toISOString() })),
      };
    },
  });

  api.add({
    method: "post",
    path: "/v3/new/command/template/list",
    need: "read",
    tag,
    summary: "The account's command templates (at most 5)",
    handler: async ({ c }) => {
      const { owner } = await s.access.caller(c.var.session);
      const list = await s.commandTemplates.list(owner.id);
      return {
        limit: TEMPLATE_LIMIT,
        list: list.map((t) => ({ ...t, createdAt: new Date(t.createdAt).toISOString() })),
      };
    },
  });

  api.add({
    method: "post",
    path: "/v3/new/command/template/save",
    need: "modifyCommands",
    tag,
    summary: "Create or edit a command template (name ≤ 20, ≤ 5 per account, unique name)",
    body: templateBody,
    handler: async ({ body, c }) => {
      const who = await editor(c.var.session);
      const ownerId = who.owner.id;
      // Validate parameters against the instruction itself (any model that has it).
      const model = DEVICE_MODELS.find((m) =>
        instructionsFor(m.mcType).some((i) => i.code === body.code)
      );
      if (!model) throw new BizError("commandUnsupported");
      buildInstruction(model.mcType, body.code, body.params);
      const all = await s.commandTemplates.list(ownerId);
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
      await s.commandTemplates.save(t);
      await log(who, { action: "templateSave", target: t.name, detail: t.code, result: "ok" });
      return { id: t.id };
    },
  });

  api.add({
    method: "post",
    path: "/v3/new/command/template/delete",
    need: "modifyCommands",
    tag,
    summary: "Delete a command template",
    body: z.object({ id: z.string().min(1).max(40) }).strict(),
    handler: async ({ body, c }) => {
      const who = await editor(c.var.session);
      const t = await s.commandTemplates.get(who.owner.id, body.id);
      if (!t || !(await s.commandTemplates.remove(who.owner.id, body.id))) {
        throw new BizError("templateNotFound");
      }
      await log(who, { action: "templateDelete", target: t.name, detail: t.code, result: "ok" });
      return null;
    },
  });
}
