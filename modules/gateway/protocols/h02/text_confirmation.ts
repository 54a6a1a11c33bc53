/**
 * V4 confirmations: `V4,<command>[,<result/params>...],<echoed hhmmss>,<fix...>`.
 *
 * The device answers a server command with the command name, its result (DONE, OK,
 * ERROR or echoed parameters), the `hhmmss` the server put in the command and, usually,
 * a current fix. Example: `*TH,2020916012,V4,S20,DONE,130305,050316,A,2212.8745,N,...#`.
 */

import type { DeviceMessage, ProtocolSession } from "../types.ts";
import { isSixDigits } from "./fields.ts";
import { takeCommandRef } from "./command_refs.ts";
import { decodeTextFix, findFixStart } from "./text_position.ts";

const SUCCESS_WORDS = new Set(["DONE", "OK", "SUCCESS"]);
const FAILURE_WORDS = new Set(["ERROR", "FAIL", "FAILED"]);

export function decodeConfirmation(
  fields: string[],
  session: ProtocolSession,
  now: Date,
): DeviceMessage[] {
  const fixStart = findFixStart(fields);
  // The field before the validity flag is the fix time, not part of the command echo.
  const commandFields = fields.slice(0, fixStart >= 0 ? fixStart - 1 : fields.length);
  const echoedTime = commandFields.length > 1 && isSixDigits(commandFields.at(-1))
    ? commandFields.pop()
    : undefined;

  const messages: DeviceMessage[] = [];
  if (commandFields.length > 0 && commandFields[0] !== "") {
    const reply: DeviceMessage & { type: "commandReply" } = {
      type: "commandReply",
      text: commandFields.join(","),
    };
    const success = replySuccess(commandFields);
    if (success !== undefined) reply.success = success;
    const ref = echoedTime === undefined ? undefined : takeCommandRef(session, echoedTime);
    if (ref !== undefined) reply.commandRef = ref;
    messages.push(reply);
  }
  const position = fixStart >= 0 ? decodeTextFix(fields, fixStart, now) : undefined;
  if (position) messages.push({ type: "position", position });
  return messages;
}

function replySuccess(commandFields: string[]): boolean | undefined {
  const words = commandFields.map((field) => field.toUpperCase());
  if (words.some((word) => FAILURE_WORDS.has(word))) return false;
  if (words.some((word) => SUCCESS_WORDS.has(word))) return true;
  return undefined;
}
