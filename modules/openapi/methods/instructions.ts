/**
 * Instruction methods through the command API's services (modules/commands/requests.ts): the
 * same send permission, the login password for protected instructions and the operation log.
 * Refusals come back as the public 12001-12005 codes.
 */
import { z } from "zod";
import commandTexts from "../../../locales/en/commands.json" with { type: "json" };
import { BizError } from "../../../lib/errors.ts";
import { INSTRUCTION_CODES } from "../../commands/catalogue/index.ts";
import type { CommandRecord } from "../../commands/types.ts";
import { OPEN_CODES, OpenApiError, type OpenMethod } from "../types.ts";
import { formatOpenTime, imeiParam, ownDevices } from "./common.ts";
import type { OpenMethodDeps } from "./deps.ts";

type Deps = Pick<OpenMethodDeps, "devices" | "commandRequests">;
const NAMES: Record<string, string> = commandTexts.instructions;

/** Command refusals → the public instruction codes; other refusals pass on. */
const INSTRUCTION_REFUSALS: Record<string, number> = {
  commandUnsupported: OPEN_CODES.instructionNotSupported,
  modelHasNoInstructions: OPEN_CODES.instructionNotSupported,
  deviceOffline: OPEN_CODES.instructionDeviceOffline,
  commandMalformed: OPEN_CODES.instructionSendFailed,
  deviceDisabled: OPEN_CODES.instructionSendFailed,
  offlineCommandExists: OPEN_CODES.instructionSendFailed,
};

async function asInstructionError<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    const code = e instanceof BizError ? INSTRUCTION_REFUSALS[e.key] : undefined;
    if (code) {
      throw new OpenApiError(code as typeof OPEN_CODES.instructionSendFailed, (e as BizError).key);
    }
    throw e;
  }
}

/** The JSON the `inst_param_json` parameter carries. */
const instParam = z.object({
  inst_id: z.string().min(1).max(40),
  params: z.record(z.string(), z.unknown()).default({}),
  /** Replace a pending offline command of the device. */
  is_cover: z.union([z.boolean(), z.enum(["true", "false"])]).default(false)
    .transform((v) => v === true || v === "true"),
  /** "online" (default): now or 12002; "offline": sent when the device next connects. */
  send_type: z.enum(["online", "offline"]).default("online"),
  /** The login password, for the instructions a model protects. */
  password: z.string().max(64).optional(),
}).strict();

const sendParams = z.object({
  imei: imeiParam,
  inst_param_json: z.string().max(4000).transform((s, ctx) => {
    try {
      const parsed = instParam.safeParse(JSON.parse(s));
      if (parsed.success) return parsed.data;
      ctx.addIssue({
        code: "custom",
        message: `inst_param_json: ${parsed.error.issues[0].message}`,
      });
    } catch {
      ctx.addIssue({ code: "custom", message: "inst_param_json: not JSON" });
    }
    return z.NEVER;
  }),
}).strict();

/** A command as jimi.open.instruction.result gives it. */
export function commandFields(c: CommandRecord) {
  return {
    id: c.id,
    imei: c.imei,
    instId: c.name ?? "text",
    content: c.content,
    status: c.status,
    sendType: c.sendType,
    sendTime: formatOpenTime(c.sentAt ?? c.createdAt),
    replyTime: formatOpenTime(c.repliedAt),
    reply: c.reply ?? "",
    isTimeout: c.status === "timeout" ? 1 : 0,
  };
}

export function instructionMethods(d: Deps): OpenMethod[] {
  const listParams = z.object({ imei: imeiParam }).strict();
  const list: OpenMethod<typeof listParams> = {
    name: "jimi.open.instruction.list",
    need: "read",
    params: listParams,
    run: async ({ session, params }) => {
      await ownDevices(d.devices, session, [params.imei]);
      const { instructions } = await asInstructionError(() =>
        d.commandRequests.instructions(session, { imei: params.imei })
      );
      return {
        result: instructions.map((i) => ({
          id: i.code,
          orderName: NAMES[i.code] ?? i.code,
          orderParams: i.params.map((p) => p.key),
          passwordRequired: i.passwordRequired,
        })),
      };
    },
  };
  const send: OpenMethod<typeof sendParams> = {
    name: "jimi.open.instruction.send",
    need: "sendCommands",
    params: sendParams,
    run: async ({ session, params: p }) => {
      await ownDevices(d.devices, session, [p.imei]);
      const inst = p.inst_param_json;
      const code = INSTRUCTION_CODES.find((c) => c === inst.inst_id);
      if (!code) throw new OpenApiError(OPEN_CODES.instructionNotExists, "no such instruction");
      const record = await asInstructionError(() =>
        d.commandRequests.sendInstruction(session, {
          imei: p.imei,
          code,
          params: inst.params,
          sendType: inst.send_type,
          replace: inst.is_cover,
          password: inst.password,
        })
      );
      return { result: commandFields(record) };
    },
  };
  const resultParams = z.object({ imei: imeiParam, id: z.string().max(64).optional() }).strict();
  const result: OpenMethod<typeof resultParams> = {
    name: "jimi.open.instruction.result",
    need: "read",
    params: resultParams,
    run: async ({ session, params }) => {
      await ownDevices(d.devices, session, [params.imei]);
      const { list } = await d.commandRequests.deviceCommands(session, params.imei, 1, 50);
      if (params.id) {
        const one = list.find((c) => c.id === params.id);
        if (!one) throw new OpenApiError(OPEN_CODES.instructionNotExists, "no such command");
        if (one.status === "timeout") {
          throw new OpenApiError(OPEN_CODES.instructionTimeout, "the device did not answer");
        }
        return { result: [commandFields(one)] };
      }
      return { result: list.map(commandFields) };
    },
  };
  return [list, send, result];
}
