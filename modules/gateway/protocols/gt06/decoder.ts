/**
 * GT06 (Concox/Jimi) frame → DecodeResult.
 *
 * CHECKSUM POLICY: frames whose CRC-ITU does not verify are still decoded when their
 * structure is valid, and each one is counted in `session.extra.badCrc`. Real devices send
 * frames with wrong CRCs and wrong length fields (several captured reference frames do), some
 * firmwares send frames with no serial/CRC at all (old 0x10 GPS, legacy WIFI 0x17/0x69), and
 * TCP already guarantees integrity on the wire; rejecting them would silently drop
 * positions. Structural checks (start marker, field sizes, bounds) still apply.
 *
 * Times in GT06 packets are UTC. The login time-zone word is reported in the identify
 * message but not applied to timestamps.
 *
 * Never throws on hostile input: malformed or truncated frames give an empty result.
 */

import { type DecodeResult, FrameError, type ProtocolSession } from "../types.ts";
import { parseFrame } from "./frame.ts";
import { DecodeContext } from "./messages/context.ts";
import { HANDLERS } from "./messages/registry.ts";
import { TruncatedError } from "./reader.ts";

const empty = (): DecodeResult => ({ messages: [], replies: [] });

function count(session: ProtocolSession, key: string): void {
  session.extra[key] = (typeof session.extra[key] === "number" ? session.extra[key] as number : 0) +
    1;
}

export function decodeGt06(
  bytes: Uint8Array,
  session: ProtocolSession,
  now: () => Date = () => new Date(),
): DecodeResult {
  const frame = parseFrame(bytes);
  if (!frame) return empty();
  if (!frame.crcOk) count(session, "badCrc");

  const handler = HANDLERS[frame.type];
  if (!handler) return empty();

  const ctx = new DecodeContext(frame, session, now);
  try {
    handler(ctx);
  } catch (error) {
    if (error instanceof FrameError) throw error;
    // Truncated content is expected from hostile or broken devices; anything else is a
    // decoder bug, counted separately. Either way the frame is dropped, the link kept.
    count(session, error instanceof TruncatedError ? "truncated" : "decodeErrors");
    return empty();
  }
  return { messages: ctx.messages, replies: ctx.replies };
}
