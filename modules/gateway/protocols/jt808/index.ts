/** JT/T 808 (2013/2019) over TCP: splitter, decoder and command encoder for the gateway. */
import type { TcpProtocol } from "../types.ts";
import { decodeFrame } from "./decoder.ts";
import { encodeJt808Command } from "./commands.ts";
import { Jt808Splitter } from "./splitter.ts";

export const jt808: TcpProtocol = {
  name: "jt808",
  createSplitter: () => new Jt808Splitter(),
  decode: (frame, session) => decodeFrame(frame, session),
  encodeCommand: encodeJt808Command,
};

export { encodeBinaryCommand, encodeJt808Command } from "./commands.ts";
export { decodeFrame } from "./decoder.ts";
export {
  ControlWord,
  encodeCommand,
  encodeTerminalControl,
  generalReply,
  positionQuery,
  registerReply,
  terminalControl,
  textMessage,
} from "./encoder.ts";
export { Jt808Splitter } from "./splitter.ts";
