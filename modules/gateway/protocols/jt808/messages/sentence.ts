/**
 * ASCII sentences "(terminalId,…)" that JT701-family locks send on the JT/T 808 port.
 * "…,BASE,2,TIME)" asks for the clock: the same sentence comes back with TIME replaced by
 * UTC yyyyMMddHHmmss. Anything else is the answer to a command.
 */
import type { DecodeResult, DeviceMessage } from "../../types.ts";
import { latin1 } from "../bytes.ts";

export function decodeSentence(frame: Uint8Array, now: Date): {
  result: DecodeResult;
  terminalId?: string;
} {
  const sentence = latin1(frame);
  const id = /^\((\d{6,20}),/.exec(sentence)?.[1];
  if (sentence.includes("BASE,2")) {
    const answer = sentence.replace("TIME", utcStamp(now));
    return { result: { messages: [], replies: [ascii(answer)] }, terminalId: id };
  }
  const reply: DeviceMessage = { type: "commandReply", text: sentence };
  return { result: { messages: [reply], replies: [] }, terminalId: id };
}

function utcStamp(d: Date): string {
  return d.toISOString().replace(/\D/g, "").slice(0, 14);
}

function ascii(s: string): Uint8Array {
  return Uint8Array.from(s, (c) => c.charCodeAt(0) & 0xff);
}
