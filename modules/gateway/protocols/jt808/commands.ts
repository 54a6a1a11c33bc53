/**
 * JT/T 808 commands, text and binary: free text is a 0x8300 text message, the binary
 * commands are 0x8105 terminal control, 0x8103 set parameters, 0x8201 position query and the
 * JT/T 1078 video requests (video.ts).
 */
import type { BinaryCommand, OutgoingCommand, ProtocolSession } from "../types.ts";
import { ByteWriter } from "./bytes.ts";
import { MsgId } from "./constants.ts";
import {
  addressOf,
  encodeCommand,
  encodeMessage,
  positionQuery,
  terminalControl,
} from "./encoder.ts";
import { videoRequest } from "./video.ts";

/** The protocol's `encodeCommand`: binary when the command is one, else 0x8300 text. */
export function encodeJt808Command(command: OutgoingCommand, session: ProtocolSession): Uint8Array {
  return command.native
    ? encodeBinaryCommand(command.native, command.ref, session)
    : encodeCommand(command, session);
}

/**
 * Frames a binary command. The header serial is the command ref (its low 16 bits), which the
 * terminal echoes in its 0x0001 general reply or, for 0x8201, in its 0x0201 location answer,
 * so the reply is matched back to the command.
 */
export function encodeBinaryCommand(
  command: BinaryCommand,
  ref: number,
  session: ProtocolSession,
): Uint8Array {
  const to = addressOf(session);
  const serial = ref & 0xffff;
  if (command.kind === "jt808Control") {
    return terminalControl(to, serial, command.word, command.params);
  }
  if (command.kind === "jt808Locate") return positionQuery(to, serial);
  if (command.kind === "jt808Video") return videoRequest(to, serial, command.request, session);
  const w = new ByteWriter().u8(command.params.length);
  for (const p of command.params) w.u32(p.id).u8(4).u32(p.value);
  return encodeMessage(to, MsgId.SET_PARAMETERS, serial, w.finish());
}
