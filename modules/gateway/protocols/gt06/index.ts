/** GT06 (Concox/Jimi) TCP protocol: splitter, decoder and command encoder. */

import { type TcpProtocol, textOnly } from "../types.ts";
import { decodeGt06 } from "./decoder.ts";
import { encodeCommand } from "./encoder.ts";
import { Gt06Splitter } from "./splitter.ts";

export const gt06: TcpProtocol = {
  name: "gt06",
  createSplitter: () => new Gt06Splitter(),
  decode: (frame, session) => decodeGt06(frame, session),
  encodeCommand: (command, session) => encodeCommand(textOnly("gt06", command), session),
};
