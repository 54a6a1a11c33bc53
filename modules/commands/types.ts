/**
 * The records of the commands area (commands, batches, the operation log, templates): what
 * other modules may name without importing the store (ports, not storage).
 */
import type { Encoding, InstructionCode } from "./catalogue/index.ts";
import type { CommandStatus } from "./statuses.ts";

/** One step of a command's life, shown as its phases on the status page. */
export interface CommandPhase {
  status: CommandStatus;
  at: number;
}

export interface CommandRecord {
  id: string;
  imei: string;
  /** Owner account of the device (for subtree checks). */
  userId: string;
  senderId: string;
  senderAccount: string;
  /** The account whose command log lists this command (the sender's, or its master's for a virtual user). */
  ownerId?: string;
  /** Instruction code from the catalogue; absent for raw text sent through the API. */
  name?: InstructionCode | "workMode" | null;
  content: string;
  /** A JT/T 808 frame other than text (0x8105, 0x8103, 0x8201); text commands leave it out. */
  native?: Exclude<Encoding, { kind: "text" }> | null;
  sendType: "online" | "offline";
  status: CommandStatus;
  /** Reference the device echoes back (GT06 server flag, JT/T 808 serial, H02 time). */
  ref: number;
  platform: "web" | "api";
  batchNo: string | null;
  createdAt: number;
  sentAt: number | null;
  repliedAt: number | null;
  reply: string | null;
  phases?: CommandPhase[];
  /** Cluster mode: the instance that wrote it to the device (its timer times it out). */
  sentBy?: string;
}

/** A batch of one command (or one work mode) sent to many devices. */
export interface BatchRecord {
  batchNo: string;
  category: "command" | "workMode";
  /** Instruction code, or the work-mode template name. */
  name: string;
  content: string;
  deviceCount: number;
  senderId: string;
  senderAccount: string;
  ownerId: string;
  sendType: "online" | "offline";
  createdAt: number;
}

/** Command and operation log entry: who did what, when, and the result. */
export interface OperationLogEntry {
  id: string;
  at: number;
  actorId: string;
  actorAccount: string;
  action:
    | "send"
    | "batchSend"
    | "cancel"
    | "cancelAll"
    | "templateSave"
    | "templateDelete"
    | "workModeSave"
    | "workModeDelete"
    | "workModeApply";
  /** IMEI, batch number or template name. */
  target: string;
  detail: string;
  result: "ok" | "failed";
}

/** A saved instruction with its parameters (spec: command template, ≤ 5 per account). */
export interface CommandTemplate {
  id: string;
  ownerId: string;
  name: string;
  code: string;
  params: Record<string, unknown>;
  createdAt: number;
}
