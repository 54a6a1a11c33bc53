/**
 * What the command API asks for, with its rules: who may send (policy.ts), which
 * instructions need the login password, what goes into the operation log. Routes parse,
 * call one method with the session and shape the answer; this is session in, record out.
 */
import type { z } from "zod";
import { BizError } from "../../lib/errors.ts";
import type { Session } from "../../lib/http/env.ts";
import type { AccessGuard } from "../accounts/access.ts";
import type { AccountLookup } from "../accounts/model.ts";
import type { PasswordChecks } from "../auth/confirm.ts";
import type { DeviceDirectory } from "../devices/directory.ts";
import type { Device } from "../devices/model.ts";
import type { DeviceService } from "../devices/service.ts";
import { type BatchSender, batchSummary, instructionItems } from "./batch.ts";
import {
  buildInstruction,
  type InstructionCode,
  instructionsFor,
  requiresPassword,
} from "./catalogue/index.ts";
import type { OperationLog } from "./oplog.ts";
import { assertCommandPassword, assertMaySend } from "./policy.ts";
import { protectedInstruction } from "./rule_commands.ts";
import type { batchSendBody, sendInstructionBody } from "./schemas.ts";
import type { CommandService } from "./service.ts";
import { findCommands, type StatusFilter } from "./status.ts";
import type { CommandStore } from "./store.ts";
import { batchTargets } from "./targets.ts";

export interface CommandRequestDeps {
  access: AccessGuard;
  accountStore: AccountLookup;
  directory: DeviceDirectory;
  devices: DeviceService;
  passwordChecks: PasswordChecks;
  commands: CommandService;
  batches: BatchSender;
  /** This module's own records (histories, batches). */
  store: CommandStore;
  oplog: OperationLog;
}

/** A text command as the API sends it. */
export interface TextCommand {
  imei: string;
  content: string;
  sendType: "online" | "offline";
  replace: boolean;
  password?: string;
}

type Caller = Awaited<ReturnType<CommandRequests["sender"]>>;

export class CommandRequests {
  constructor(private readonly s: CommandRequestDeps) {}

  /** The caller, checked against the send permissions; sender fields for records. */
  async sender(session: Session, batch: boolean) {
    const { self, owner } = await this.s.access.caller(session);
    assertMaySend(self, owner, batch);
    return { self, owner, sender: { id: self.id, account: self.account, ownerId: owner.id } };
  }

  /**
   * Refuses a protected instruction unless the login password confirms it, also when it comes
   * as free text (`DYD,000000#` typed as a custom or plain text command).
   */
  private async confirmPassword(
    who: Caller,
    devices: Device[],
    code: InstructionCode | "text",
    password: string | undefined,
    text = "",
  ) {
    const needs = (d: Device) =>
      (code !== "text" && requiresPassword(d.mcType, code)) ||
      (text !== "" && protectedInstruction(text, d.mcType) !== null);
    if (devices.some(needs)) {
      await assertCommandPassword(this.s.passwordChecks, who.self, password);
    }
  }

  /** Sends, logging the attempt as ok or failed (the refusal still reaches the caller). */
  private async sendLogged<T>(who: Caller, imei: string, detail: string, send: () => Promise<T>) {
    try {
      const record = await send();
      await this.s.oplog.write(who, { action: "send", target: imei, detail, result: "ok" });
      return record;
    } catch (e) {
      await this.s.oplog.write(who, { action: "send", target: imei, detail, result: "failed" });
      throw e;
    }
  }

  async sendText(session: Session, body: TextCommand) {
    const who = await this.sender(session, false);
    const device = await this.s.devices.visibleDevice(session, body.imei);
    await this.confirmPassword(who, [device], "text", body.password, body.content);
    return await this.sendLogged(who, body.imei, body.content, () =>
      this.s.commands.send(
        { device, content: body.content, sendType: body.sendType, replace: body.replace },
        who.sender,
      ));
  }

  async sendInstruction(session: Session, body: z.infer<typeof sendInstructionBody>) {
    const who = await this.sender(session, false);
    const device = await this.s.devices.visibleDevice(session, body.imei);
    const built = buildInstruction(device.mcType, body.code, body.params);
    const text = body.code === "custom" ? built.content : "";
    await this.confirmPassword(who, [device], body.code, body.password, text);
    return await this.sendLogged(who, body.imei, built.content, () =>
      this.s.commands.send({
        device,
        name: body.code,
        content: built.content,
        native: built.encoding.kind === "text" ? null : built.encoding,
        sendType: body.sendType,
        replace: body.replace,
      }, who.sender));
  }

  /** The instructions of a device the caller sees, or of a model; 43004 when none. */
  async instructions(session: Session, q: { imei?: string; mcType?: string }) {
    const mcType = q.imei
      ? (await this.s.devices.visibleDevice(session, q.imei)).mcType
      : q.mcType!;
    const list = instructionsFor(mcType);
    if (!list.length) throw new BizError("modelHasNoInstructions");
    return { mcType, instructions: list };
  }

  /** The devices of a batch the caller may command, and the IMEIs refused. */
  targets(session: Session, imeis: string[]) {
    return batchTargets(this.s, session, imeis);
  }

  /** For devices chosen for a batch: their models and how many accept each instruction. */
  async batchInstructions(session: Session, imeis: string[]) {
    const { devices, rejected } = await this.targets(session, imeis);
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
  }

  async batchSend(session: Session, body: z.infer<typeof batchSendBody>) {
    const who = await this.sender(session, true);
    const { devices, rejected } = await this.targets(session, body.imeis);
    if (!devices.length) throw new BizError("noDevicesChosen", {}, { rejected });
    // Validate the parameters once up front so a typo refuses the whole batch.
    const model = devices.find((d) => instructionsFor(d.mcType).some((x) => x.code === body.code));
    if (!model) throw new BizError("commandUnsupported");
    const built = buildInstruction(model.mcType, body.code, body.params);
    const text = body.code === "custom" ? String(body.params.text ?? "") : "";
    await this.confirmPassword(who, devices, body.code, body.password, text);
    const { batch, records } = await this.s.batches.send({
      category: "command",
      name: body.code,
      content: built.content,
      items: instructionItems(devices, body.code, body.params),
      sendType: body.sendType,
      replace: body.replace,
    }, who.sender);
    await this.s.oplog.write(who, {
      action: "batchSend",
      target: batch.batchNo,
      detail: `${body.code} × ${devices.length}`,
    });
    return batchSummary(batch, records, rejected);
  }

  async batches(session: Session, category: "command" | "workMode", pageNum: number, size: number) {
    const { owner } = await this.s.access.caller(session);
    return this.s.store.listBatches(owner.id, category, pageNum, size);
  }

  /** A batch of the caller's account with its commands (by IMEI) and counts per status. */
  async batchDetail(session: Session, batchNo: string) {
    const { owner } = await this.s.access.caller(session);
    const batch = await this.s.store.getBatch(batchNo);
    if (!batch || batch.ownerId !== owner.id) throw new BizError("dataNotExists");
    const list = (await this.s.store.batchCommands(batch.batchNo))
      .sort((a, b) => a.imei.localeCompare(b.imei));
    const counts: Record<string, number> = {};
    for (const r of list) counts[r.status] = (counts[r.status] ?? 0) + 1;
    return { batch, counts, list };
  }

  /** The caller's account's commands matching the filter (the first `limit` of them). */
  async find(session: Session, filter: StatusFilter, limit = Infinity) {
    const { owner } = await this.s.access.caller(session);
    return findCommands(this.s.store, owner.id, filter, limit);
  }

  async deviceCommands(session: Session, imei: string, pageNum: number, pageSize: number) {
    await this.s.devices.visibleDevice(session, imei);
    return this.s.store.listForDevice(imei, pageNum, pageSize);
  }

  /** Cancels a device's pending offline command; dataNotExists when there is none. */
  async cancel(session: Session, imei: string) {
    const who = await this.sender(session, false);
    await this.s.devices.visibleDevice(session, imei);
    const cancelled = await this.s.commands.cancel(imei);
    if (!cancelled) throw new BizError("dataNotExists");
    await this.s.oplog.write(who, { action: "cancel", target: imei, detail: cancelled.content });
    return cancelled;
  }

  /** Cancels every pending offline command of the caller's account; how many. */
  async cancelAll(session: Session): Promise<number> {
    const who = await this.sender(session, false);
    const done = await this.s.commands.cancelAll(who.owner.id);
    await this.s.oplog.write(who, {
      action: "cancelAll",
      target: "*",
      detail: String(done.length),
    });
    return done.length;
  }

  async operationLog(session: Session, pageNum: number, pageSize: number) {
    const { owner } = await this.s.access.caller(session);
    return this.s.oplog.list(owner.id, pageNum, pageSize);
  }
}
