import type { Account } from "../accounts/model.ts";
import type { CommandStore, OperationLog } from "./store.ts";

/** Writes command and operation log entries for one caller (who, when; the caller says what). */
export function operationLogger(store: CommandStore, who: { self: Account; owner: Account }) {
  return (e: Pick<OperationLog, "action" | "target" | "detail"> & { result?: "ok" | "failed" }) =>
    store.log(who.owner.id, {
      result: "ok",
      ...e,
      at: Date.now(),
      actorId: who.self.id,
      actorAccount: who.self.account,
    });
}
