import { z } from "zod";
import type { ApiRegistry } from "../../lib/http/api.ts";
import { translator } from "../../lib/i18n/i18n.ts";
import { pageFields } from "../accounts/schemas.ts";
import { DEVICE_MODELS } from "../devices/models.ts";
import { INSTRUCTIONS, instructionsFor } from "./catalogue/index.ts";
import {
  batchSendBody,
  exportQuery,
  imei,
  sendInstructionBody,
  statusBody,
  TEMPLATE_LIMIT,
  templateBody,
} from "./schemas.ts";
import { commandJson, commandsCsv, commandsXlsx } from "./status.ts";
import { XLSX_TYPE } from "../devices/sheets.ts";
import type { CommandRequests } from "./requests.ts";
import type { CommandTemplates } from "./templates.ts";

/** The services these routes use (the composition root passes them). */
export interface CommandRouteDeps {
  commandRequests: CommandRequests;
  commandTemplates: CommandTemplates;
}

export function registerCommandRoutes(api: ApiRegistry, s: CommandRouteDeps) {
  registerCommandSendRoutes(api, s);
  registerCommandBatchRoutes(api, s);
  registerCommandStatusRoutes(api, s);
  registerCommandTemplateRoutes(api, s);
}

/** Send text and catalogue instructions, one device or a batch. */
function registerCommandSendRoutes(api: ApiRegistry, s: CommandRouteDeps) {
  const tag = "Commands";
  const rq = s.commandRequests;
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
      const record = await rq.sendText(c.var.session, body);
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
    handler: ({ query, c }) => rq.instructions(c.var.session, query),
  });

  api.add({
    method: "post",
    path: "/v3/new/command/batchInstructions",
    need: "read",
    tag,
    summary:
      "For devices chosen for a batch: their models, and how many of them accept each instruction",
    body: z.object({ imeis: batchSendBody.shape.imeis }).strict(),
    handler: ({ body, c }) => rq.batchInstructions(c.var.session, body.imeis),
  });

  api.add({
    method: "post",
    path: "/v3/new/command/sendInstruction",
    need: "sendCommands",
    tag,
    summary: "Send a catalogue instruction with typed parameters to one device",
    body: sendInstructionBody,
    handler: async ({ body, c }) => {
      const record = await rq.sendInstruction(c.var.session, body);
      return { id: record.id, status: record.status, content: record.content };
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
    handler: ({ body, c }) => rq.batchSend(c.var.session, body),
  });
}

/** Batches and their per-device results. */
function registerCommandBatchRoutes(api: ApiRegistry, s: CommandRouteDeps) {
  const tag = "Commands";
  const rq = s.commandRequests;
  api.add({
    method: "post",
    path: "/v3/new/command/batchList",
    need: "read",
    tag,
    summary: "The account's command batches: batch number, category, device count, sender",
    body: z.object({ ...pageFields, category: z.enum(["command", "workMode"]).default("command") })
      .strict(),
    handler: async ({ body, c }) => {
      const page = await rq.batches(c.var.session, body.category, body.pageNum, body.pageSize);
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
      const { batch, counts, list } = await rq.batchDetail(c.var.session, body.batchNo);
      return {
        batch: { ...batch, createdAt: new Date(batch.createdAt).toISOString() },
        counts,
        list: list.map(commandJson),
      };
    },
  });
}

/** Command status, export, per-device history, cancelling and the operation log. */
function registerCommandStatusRoutes(api: ApiRegistry, s: CommandRouteDeps) {
  const tag = "Commands";
  const rq = s.commandRequests;
  api.add({
    method: "post",
    path: "/v3/new/command/status",
    need: "read",
    tag,
    summary: "Every command of the account with status, phases and reply; filtered and paged",
    body: statusBody,
    handler: async ({ body, c }) => {
      const { pageNum, pageSize, ...filter } = body;
      const found = await rq.find(c.var.session, filter, pageNum * pageSize);
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
      const { lang, format, ...filter } = query;
      const found = await rq.find(c.var.session, filter, 5000);
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
      const page = await rq.deviceCommands(c.var.session, body.imei, body.pageNum, body.pageSize);
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
      const cancelled = await rq.cancel(c.var.session, body.imei);
      return { id: cancelled.id, status: cancelled.status };
    },
  });

  api.add({
    method: "post",
    path: "/v3/new/command/cancelAll",
    need: "sendCommands",
    tag,
    summary: "Cancel every pending offline command the account has sent",
    handler: async ({ c }) => ({ cancelled: await rq.cancelAll(c.var.session) }),
  });

  api.add({
    method: "post",
    path: "/v3/new/command/operationLog",
    need: "read",
    tag,
    summary: "Command and operation log: who sent, cancelled or changed what, when, with result",
    body: z.object(pageFields).strict(),
    handler: async ({ body, c }) => {
      const page = await rq.operationLog(c.var.session, body.pageNum, body.pageSize);
      return {
        total: page.total,
        list: page.list.map((e) => ({ ...e, at: new Date(e.at).toISOString() })),
      };
    },
  });
}

/** Command templates. */
function registerCommandTemplateRoutes(api: ApiRegistry, s: CommandRouteDeps) {
  const tag = "Commands";
  api.add({
    method: "post",
    path: "/v3/new/command/template/list",
    need: "read",
    tag,
    summary: "The account's command templates (at most 5)",
    handler: async ({ c }) => {
      const list = await s.commandTemplates.list(c.var.session);
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
    handler: async ({ body, c }) => ({ id: await s.commandTemplates.save(c.var.session, body) }),
  });

  api.add({
    method: "post",
    path: "/v3/new/command/template/delete",
    need: "modifyCommands",
    tag,
    summary: "Delete a command template",
    body: z.object({ id: z.string().min(1).max(40) }).strict(),
    handler: async ({ body, c }) => {
      await s.commandTemplates.remove(c.var.session, body.id);
      return null;
    },
  });
}
