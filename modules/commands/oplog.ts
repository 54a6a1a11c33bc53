import type { Account } from "../accounts/model.ts";
import type { OperationLogEntry } from "./types.ts";

/** Where log entries are kept (the command store implements it). */
export interface OperationLogRecords {
  log(ownerId: string, entry: Omit<OperationLogEntry, "id">): Promise<void>;
  listLog(
    ownerId: string,
    pageNum: number,
    pageSize: number,
  ): Promise<{ total: number; list: OperationLogEntry[] }>;
}

/** Who did it: the signed-in account and the account whose log lists it. */
export interface Actor {
  self: Account;
  owner: Account;
}

/** What the caller says happened; who and when are the log's. */
export type LogEvent = Pick<OperationLogEntry, "action" | "target" | "detail"> & {
  result?: "ok" | "failed";
};

/**
 * The command and operation log (who sent, cancelled or changed what, when, with result),
 * written by the command and working-mode services after each change.
 */
export class OperationLog {
  constructor(private readonly records: OperationLogRecords) {}

  write(who: Actor, e: LogEvent): Promise<void> {
    return this.records.log(who.owner.id, {
      result: "ok",
      ...e,
      at: Date.now(),
      actorId: who.self.id,
      actorAccount: who.self.account,
    });
  }

  list(ownerId: string, pageNum: number, pageSize: number) {
    return this.records.listLog(ownerId, pageNum, pageSize);
  }
}
