/**
 * A working-mode cycle as a device command, per protocol family.
 *
 * GT06-family asset and personal trackers take Concox MODE text commands:
 *   MODE,1,<minutes>#                          normal: report every n minutes
 *   MODE,2,<HH:MM>,<minutes>,<days>#           timing: wake at HH:MM, then every n minutes
 *   MODE,3,<HH:MM>,<days>#                     week: sync once at HH:MM on the days
 * (days as digits 1-7, Monday first). JT/T 808 terminals get normal mode as 0x8103 default
 * report interval (0x0029, seconds) and timed modes as the same MODE text in 0x8300.
 * H02 only knows a periodic interval (S71,22,<seconds>): normal mode only.
 */
import { BizError } from "../../lib/errors.ts";
import type { CommandRecord } from "../commands/types.ts";
import { findModel } from "../devices/models.ts";
import type { Cycle } from "./schemas.ts";

function modeText(c: Cycle): string {
  const days = [...new Set(c.repeatDays)].sort().join("");
  switch (c.mode) {
    case "normal":
      return `MODE,1,${c.syncInterval}#`;
    case "timing":
      return `MODE,2,${c.wakeUpTime},${c.syncInterval},${days}#`;
    case "week":
      return `MODE,3,${c.syncTime},${days}#`;
  }
}

export function encodeCycle(
  mcType: string,
  c: Cycle,
): Pick<CommandRecord, "name" | "content" | "native"> {
  const protocol = findModel(mcType)?.protocol;
  if (protocol === "gt06") return { name: "workMode", content: modeText(c), native: null };
  if (protocol === "jt808") {
    if (c.mode !== "normal") return { name: "workMode", content: modeText(c), native: null };
    const seconds = c.syncInterval! * 60;
    return {
      name: "workMode",
      content: `0x8103 0x0029=${seconds}`,
      native: { kind: "jt808Params", params: [{ id: 0x0029, value: seconds }] },
    };
  }
  if (protocol === "h02" && c.mode === "normal") {
    return { name: "workMode", content: `S71,22,${c.syncInterval! * 60}`, native: null };
  }
  throw new BizError(protocol ? "commandUnsupported" : "modelHasNoInstructions");
}
