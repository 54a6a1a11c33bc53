/** H02 (Sinotrack, TK103-H02, "*HQ" family) protocol for the gateway. */

import { type DecodeResult, FrameError, type TcpProtocol, textOnly } from "../types.ts";
import { decodeH02 } from "./decoder.ts";
import { encodeH02Command } from "./encoder.ts";
import { H02Splitter } from "./splitter.ts";

export const h02: TcpProtocol = {
  name: "h02",
  createSplitter: () => new H02Splitter(),
  decode(frame, session): DecodeResult {
    try {
      return decodeH02(frame, session);
    } catch (error) {
      // The decoders validate every field and are fuzz-tested; this guard only upholds the
      // contract ("never throws on hostile input") should a malformed frame slip through.
      if (error instanceof FrameError) throw error;
      // Counted in the session; the gateway link turns it into tp_gateway_decode_errors_total.
      const n = session.extra.decodeErrors;
      session.extra.decodeErrors = (typeof n === "number" ? n : 0) + 1;
      return { messages: [], replies: [] };
    }
  },
  encodeCommand: (command, session) => encodeH02Command(textOnly("h02", command), session),
};

export { decodeH02 } from "./decoder.ts";
export { encodeH02Command, formatH02Command, H02_COMMANDS } from "./encoder.ts";
export { H02Splitter } from "./splitter.ts";
export { ACK_POSITIONS_KEY } from "./text.ts";
