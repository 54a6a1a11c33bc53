/**
 * TextCommand → 0x80 command frame:
 *   length of (server flag + command), server flag (4 bytes, = command.ref, echoed back in
 *   the device's 0x15/0x21 answer), ASCII command, language (2 bytes), serial, CRC.
 * The long 0x7979 framing is used when the command does not fit a 1-byte length.
 */

import type { ProtocolSession, TextCommand } from "../types.ts";
import { buildFrame } from "./frame.ts";

export const MSG_COMMAND = 0x80;
/** Language word of the command packet (GT06 documents: 1 Chinese, 2 English): English replies by default; override per session with `extra.commandLanguage`. */
export const DEFAULT_COMMAND_LANGUAGE = 0x0002;

export function encodeCommand(command: TextCommand, session: ProtocolSession): Uint8Array {
  const text = asciiBytes(command.content);
  if (text.length > 0xff - 4) throw new RangeError("GT06 command longer than 251 bytes");
  const language = typeof session.extra.commandLanguage === "number"
    ? session.extra.commandLanguage
    : DEFAULT_COMMAND_LANGUAGE;

  const content = new Uint8Array(1 + 4 + text.length + 2);
  const view = new DataView(content.buffer);
  content[0] = 4 + text.length;
  view.setUint32(1, command.ref >>> 0);
  content.set(text, 5);
  view.setUint16(5 + text.length, language & 0xffff);

  const serial = nextSerial(session);
  return buildFrame(MSG_COMMAND, serial, content);
}

function nextSerial(session: ProtocolSession): number {
  const serial = session.serial & 0xffff;
  session.serial = (serial + 1) & 0xffff;
  return serial;
}

/** Commands are ASCII; anything else is replaced so the byte count stays exact. */
function asciiBytes(text: string): Uint8Array {
  return Uint8Array.from(text, (ch) => {
    const code = ch.charCodeAt(0);
    return code < 0x80 ? code : 0x3f;
  });
}
