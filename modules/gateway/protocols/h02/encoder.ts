/**
 * Server-to-device H02 commands: `*HQ,<id>,<CMD>,<hhmmss>[,<param>...]#`.
 *
 * The server's UTC `hhmmss` goes right after the command name; the device echoes it in
 * its V4 confirmation, which is how replies are matched to `TextCommand.ref`.
 */

import type { ProtocolSession, TextCommand } from "../types.ts";
import { rememberCommand } from "./command_refs.ts";
import { ascii, formatHhmmss } from "./fields.ts";

const MAKER = "HQ";
/** The protocol lets the server fill an unknown id with zeros; devices ignore the field. */
const UNKNOWN_ID = "0000000000";

/** Common command contents (the part after the id, without the time), per the H02 command set. */
export const H02_COMMANDS = {
  engineStop: "S20,1,1",
  engineResume: "S20,1,0",
  alarmArm: "SCF,0,0",
  alarmDisarm: "SCF,1,1",
  /** Reporting interval in seconds. */
  positionPeriodic: (seconds: number) => `S71,22,${Math.max(1, Math.round(seconds))}`,
} as const;

/**
 * Builds the command text. `content` is `CMD[,params]` (e.g. `S20,1,1`); a content that is
 * already a full frame (`*..#`) is sent unchanged so operators can type raw commands.
 */
export function formatH02Command(deviceId: string, content: string, now: Date): string {
  const trimmed = content.trim();
  if (trimmed.startsWith("*") && trimmed.endsWith("#")) return trimmed;
  // '#' would end the frame early and line breaks are not part of the command set.
  const [name, ...params] = trimmed.replace(/[#*\r\n]/g, "").split(",");
  return `*${MAKER},${[deviceId, name, formatHhmmss(now), ...params].join(",")}#`;
}

export function encodeH02Command(
  command: TextCommand,
  session: ProtocolSession,
  now: Date = new Date(),
): Uint8Array {
  rememberCommand(session, formatHhmmss(now), command.ref);
  return ascii(formatH02Command(session.deviceId ?? UNKNOWN_ID, command.content, now));
}
