/**
 * Commands on their way to a device. They are encoded where the connection's protocol session
 * lives (the I/O worker that owns the socket): encoders advance its serial counters and some
 * (H02) remember what was sent so the decoder can match the reply. Each protocol frames its
 * own commands, text and binary (`TcpProtocol.encodeCommand`).
 */
import {
  CommandEncodeError,
  type OutgoingCommand,
  type ProtocolSession,
  type TcpProtocol,
} from "../protocols/types.ts";

export { CommandEncodeError, type OutgoingCommand };

/** Encodes with the connection's protocol; any encoder failure is a CommandEncodeError. */
export function encodeOutgoing(
  protocol: TcpProtocol,
  session: ProtocolSession,
  command: OutgoingCommand,
): Uint8Array {
  try {
    return protocol.encodeCommand(command, session);
  } catch (e) {
    if (e instanceof CommandEncodeError) throw e;
    throw new CommandEncodeError((e as Error).message);
  }
}
