/** Terminal answers to platform messages and free-text reports → "commandReply". */
import type { DeviceMessage } from "../../types.ts";
import { decodeGbk, trimControl } from "../bytes.ts";
import type { ByteReader } from "../bytes.ts";
import { MsgId, Result } from "../constants.ts";
import { handled, type MessageHandler } from "./context.ts";

const RESULT_TEXT: Readonly<Record<number, string>> = {
  [Result.SUCCESS]: "success",
  [Result.FAILURE]: "failure",
  [Result.MESSAGE_ERROR]: "message error",
  [Result.NOT_SUPPORTED]: "not supported",
  [Result.ALARM_ACK]: "alarm acknowledged",
};

function hexId(id: number): string {
  return `0x${id.toString(16).padStart(4, "0")}`;
}

/** 0x0001: WORD serial of our message, WORD its id, BYTE result. The serial is the command ref. */
export const terminalGeneralReply: MessageHandler = (ctx) => {
  const serial = ctx.body.u16();
  const msgId = ctx.body.u16();
  const result = ctx.body.u8();
  const text = `${hexId(msgId)} ${RESULT_TEXT[result] ?? `result ${result}`}`;
  return handled([{
    type: "commandReply",
    text,
    commandRef: serial,
    success: result === Result.SUCCESS,
  }]);
};

/** 0x0104: WORD serial of our 0x8104, BYTE count, then (DWORD id, BYTE length, value). */
export const parametersReply: MessageHandler = (ctx) => {
  const serial = ctx.body.u16();
  ctx.body.skip(1);
  const pairs: string[] = [];
  while (ctx.body.remaining >= 5) {
    const id = ctx.body.u32();
    const length = ctx.body.u8();
    if (length > ctx.body.remaining) break;
    pairs.push(`${hexId(id)}=${parameterValue(ctx.body.sub(length), length)}`);
  }
  return handled([{ type: "commandReply", text: pairs.join(";"), commandRef: serial }]);
};

/** BYTE/WORD/DWORD parameters are numbers; everything else is a GBK string. */
function parameterValue(v: ByteReader, length: number): string {
  if (length === 1) return String(v.u8());
  if (length === 2) return String(v.u16());
  if (length === 4) return String(v.u32());
  return trimControl(decodeGbk(v.rest()));
}

/** 0x0701: DWORD length, then text (vendors answer configuration commands this way). */
export const lengthPrefixedText: MessageHandler = (ctx) => {
  const length = ctx.body.u32();
  const text = ctx.body.latin1(Math.min(length, ctx.body.remaining));
  return handled([reply(text)], [ctx.ack()]);
};

/** 0x1300 (vendor): WORD serial of our text message, then UTF-16BE text. */
export const utf16TextReply: MessageHandler = (ctx) => {
  const serial = ctx.body.u16();
  const text = trimControl(new TextDecoder("utf-16be").decode(ctx.body.rest()));
  return handled([{ type: "commandReply", text, commandRef: serial }]);
};

/** 0x6006 (vendor): BYTE encoding, then text (ASCII/GBK). */
export const textReport: MessageHandler = (ctx) => {
  ctx.body.skip(1);
  return handled([reply(trimControl(decodeGbk(ctx.body.rest())))], [ctx.ack()]);
};

function reply(text: string): DeviceMessage {
  return { type: "commandReply", text };
}

export const REPLY_HANDLERS: ReadonlyArray<[number, MessageHandler]> = [
  [MsgId.TERMINAL_GENERAL_REPLY, terminalGeneralReply],
  [MsgId.PARAMETERS_REPLY, parametersReply],
  [MsgId.WAYBILL, lengthPrefixedText],
  [MsgId.TEXT_REPLY_UTF16, utf16TextReply],
  [MsgId.TEXT_REPORT, textReport],
];
