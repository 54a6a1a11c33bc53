/**
 * Commands on their way to a device. They are encoded where the connection's protocol session
 * lives (the I/O worker that owns the socket): encoders advance its serial counters and some
 * (H02) remember what was sent so the decoder can match the reply.
 */
import type { Encoding } from "../../commands/catalogue/encoding.ts";
import { ByteWriter } from "../protocols/jt808/bytes.ts";
import { MsgId } from "../protocols/jt808/constants.ts";
import {
  addressOf,
  encodeMessage,
  positionQuery,
  terminalControl,
} from "../protocols/jt808/encoder.ts";
import type { ProtocolSession, TcpProtocol } from "../protocols/types.ts";

export type NativeEncoding = Exclude<Encoding, { kind: "text" }>;

export interface OutgoingCommand {
  /** Reference the device echoes so its reply is matched (GT06 server flag, JT/T 808 serial). */
  ref: number;
  /** Operator text, framed by the protocol's text command (GT06 0x80, JT/T 808 0x8300, H02). */
  content: string;
  /** A JT/T 808 message other than a text command, when the instruction is one. */
  native?: NativeEncoding | null;
}

/** The protocol could not encode the command (it is refused, never half-sent). */
export class CommandEncodeError extends Error {}

export function encodeOutgoing(
  protocol: TcpProtocol,
  session: ProtocolSession,
  command: OutgoingCommand,
): Uint8Array {
  try {
    return command.native
      ? encodeNative(command.native, command.ref, session)
      : protocol.encodeCommand({ content: command.content, ref: command.ref }, session);
  } catch (e) {
    throw new CommandEncodeError((e as Error).message);
  }
}

/**
 * Frames a non-text encoding (JT/T 808 0x8105 / 0x8103 / 0x8201). The header serial is the
 * command ref (its low 16 bits), which the terminal echoes in its 0x0001 general reply or, for
 * 0x8201, in its 0x0201 location answer, so the reply is matched back to the command.
 */
export function encodeNative(
  e: NativeEncoding,
  ref: number,
  session: ProtocolSession,
): Uint8Array {
  const to = addressOf(session);
  const serial = ref & 0xffff;
  if (e.kind === "jt808Control") return terminalControl(to, serial, e.word, e.params);
  if (e.kind === "jt808Locate") return positionQuery(to, serial);
  const w = new ByteWriter().u8(e.params.length);
  for (const p of e.params) w.u32(p.id).u8(4).u32(p.value);
  return encodeMessage(to, MsgId.SET_PARAMETERS, serial, w.finish());
}
