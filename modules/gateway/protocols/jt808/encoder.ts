/**
 * Platform → terminal messages. Every builder returns a complete wire frame (flags, escaped
 * content, XOR check code) in the terminal's own protocol version: a 2019 terminal gets the
 * version flag, its version byte and its 10-byte phone field back.
 */
import type { ProtocolSession, TextCommand } from "../types.ts";
import { ByteWriter } from "./bytes.ts";
import { xorChecksum } from "./checksum.ts";
import { MsgId, Result } from "./constants.ts";
import { wrapFrame } from "./escape.ts";
import { writeHeader } from "./header.ts";
import { terminalBytes } from "./identity.ts";
import { nextSerial, rememberedTerminal, type TerminalAddress } from "./session_state.ts";

export type { TerminalAddress };

/** Frames one message: header + body + check code, escaped between 0x7E flags. */
export function encodeMessage(
  to: TerminalAddress,
  msgId: number,
  serial: number,
  body: Uint8Array,
  shortSerial = false,
): Uint8Array {
  const w = new ByteWriter();
  writeHeader(w, {
    msgId,
    bodyLength: body.length,
    version: to.version,
    terminal: to.terminal,
    serial,
    shortSerial,
  });
  w.bytes(body);
  const content = w.finish();
  const withCheck = new Uint8Array(content.length + 1);
  withCheck.set(content);
  withCheck[content.length] = xorChecksum(content);
  return wrapFrame(withCheck);
}

/** 0x8001: acknowledges one terminal message (its serial and id) with a result code. */
export function generalReply(
  to: TerminalAddress,
  serial: number,
  replySerial: number,
  replyMsgId: number,
  result: number = Result.SUCCESS,
): Uint8Array {
  const body = new ByteWriter().u16(replySerial).u16(replyMsgId).u8(result).finish();
  return encodeMessage(to, MsgId.PLATFORM_GENERAL_REPLY, serial, body);
}

/** 0x4401 (vendor locks): acknowledges a 0x5501/0x5502 report by message id only. */
export function lockReply(to: TerminalAddress, replyMsgId: number): Uint8Array {
  const body = new ByteWriter().u16(replyMsgId).u8(Result.SUCCESS).finish();
  return encodeMessage(to, MsgId.LOCK_GENERAL_REPLY, 1, body, true);
}

/** 0x8100: registration result; the auth code (ASCII) is only sent on success. */
export function registerReply(
  to: TerminalAddress,
  serial: number,
  replySerial: number,
  result: number,
  authCode: string,
): Uint8Array {
  const w = new ByteWriter().u16(replySerial).u8(result);
  if (result === Result.SUCCESS) w.bytes(ascii(authCode));
  return encodeMessage(to, MsgId.REGISTER_REPLY, serial, w.finish());
}

/**
 * Text flag bits (JT/T 808 table "text message flag"): 0 emergency, 2 terminal display,
 * 3 TTS read-out, 4 advertising screen. Emergency makes terminals act on it at once, which is
 * what command-style texts need.
 */
export const TEXT_FLAG_DEFAULT = 0x01;
/** 2019 adds a text type byte: 1 notification, 2 service. */
const TEXT_TYPE_NOTIFICATION = 1;

/** 0x8300: text message (ASCII; other characters become "?", GBK is not encoded). */
export function textMessage(
  to: TerminalAddress,
  serial: number,
  text: string,
  flag = TEXT_FLAG_DEFAULT,
): Uint8Array {
  const w = new ByteWriter().u8(flag);
  if (to.version !== null) w.u8(TEXT_TYPE_NOTIFICATION);
  w.bytes(ascii(text));
  return encodeMessage(to, MsgId.TEXT_MESSAGE, serial, w.finish());
}

/** Command words of 0x8105 terminal control. */
export const ControlWord = {
  WIRELESS_UPGRADE: 1,
  CONNECT_SERVER: 2,
  POWER_OFF: 3,
  RESET: 4,
  FACTORY_RESET: 5,
  CLOSE_DATA_LINK: 6,
  CLOSE_ALL_WIRELESS: 7,
} as const;

/** 0x8105: terminal control; params are the ";"-separated string some words take. */
export function terminalControl(
  to: TerminalAddress,
  serial: number,
  command: number,
  params?: string,
): Uint8Array {
  const w = new ByteWriter().u8(command);
  if (params !== undefined && params !== "") w.bytes(ascii(params));
  return encodeMessage(to, MsgId.TERMINAL_CONTROL, serial, w.finish());
}

/**
 * 0x8201 position query ("locate now"): no body. The terminal answers 0x0201 with this
 * message's serial and its current location block.
 */
export function positionQuery(to: TerminalAddress, serial: number): Uint8Array {
  return encodeMessage(to, MsgId.POSITION_QUERY, serial, new Uint8Array(0));
}

/** 0x8109 (vendor): current UTC time for terminals that ask with 0x0109. */
export function timeSyncReply(to: TerminalAddress, serial: number, now: Date): Uint8Array {
  const body = new ByteWriter()
    .u16(now.getUTCFullYear())
    .u8(now.getUTCMonth() + 1)
    .u8(now.getUTCDate())
    .u8(now.getUTCHours())
    .u8(now.getUTCMinutes())
    .u8(now.getUTCSeconds())
    .u8(Result.SUCCESS)
    .finish();
  return encodeMessage(to, MsgId.TIME_SYNC_REPLY, serial, body);
}

/**
 * An operator text command as 0x8300. The header serial is the command ref, so the terminal's
 * 0x0001 general reply (which echoes it) is matched back to the command.
 */
export function encodeCommand(command: TextCommand, session: ProtocolSession): Uint8Array {
  return textMessage(addressOf(session), command.ref & 0xffff, command.content);
}

/** 0x8105 for an operator action, with a fresh platform serial. */
export function encodeTerminalControl(
  session: ProtocolSession,
  command: number,
  params?: string,
): Uint8Array {
  return terminalControl(addressOf(session), nextSerial(session), command, params);
}

/** Where to send: the terminal field last received, else one built from the device id (2013). */
export function addressOf(session: ProtocolSession): TerminalAddress {
  const seen = rememberedTerminal(session);
  if (seen) return seen;
  if (session.deviceId) return { version: null, terminal: terminalBytes(session.deviceId, 6) };
  throw new Error("JT/T 808: terminal address unknown (no frame received, no device id)");
}

function ascii(text: string): Uint8Array {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    out[i] = c < 0x80 ? c : 0x3f;
  }
  return out;
}
