/** Dispatches a text frame to the decoder for its message type and picks its reply. */

import type { DeviceMessage, Position, ProtocolSession } from "../types.ts";
import { decodeConfirmation } from "./text_confirmation.ts";
import type { TextFrame } from "./text_frame.ts";
import { decodeNbr, decodeV3, decodeVp1 } from "./text_lbs.ts";
import { decodeTextFix, findFixStart } from "./text_position.ts";
import { decodeHeartbeat, decodeLink, decodeSms } from "./text_status.ts";

export interface TextDecoded {
  messages: DeviceMessage[];
  /** Reply text for the device, if this message type expects one. */
  reply?: string;
}

/**
 * Opt-in flag in `session.extra`: acknowledge V1 and NBR reports with
 * `*HQ,<id>,V4,<type>,<yyyyMMddHHmmss>#`. Off by default: standard H02 devices expect no
 * answer to position reports, and unsolicited text can confuse older firmwares.
 */
export const ACK_POSITIONS_KEY = "h02AckPositions";

export function decodeText(
  frame: TextFrame,
  deviceId: string,
  session: ProtocolSession,
  now: Date,
): TextDecoded {
  const { type, fields } = frame;
  switch (type) {
    case "HTBT":
    case "V0":
      // Heartbeat firmwares wait for their header echoed back before the next one.
      return {
        messages: [decodeHeartbeat(fields, now)],
        reply: `*${frame.maker},${deviceId},${type}#`,
      };
    case "XT":
      return { messages: [decodeHeartbeat([], now)] };
    case "LINK":
      return { messages: [decodeLink(fields, now)] };
    case "SMS":
      return { messages: decodeSms(frame.body) };
    case "V4":
      return { messages: decodeConfirmation(fields, session, now) };
    case "NBR":
      return withAck(positionMessages(decodeNbr(fields, now)), frame, deviceId, session, now);
    case "V3":
      return { messages: positionMessages(decodeV3(fields)) };
    case "VP1":
      return { messages: positionMessages(decodeVp1(fields, now)) };
  }
  if (!type.startsWith("V")) return { messages: [] };
  const fixStart = findFixStart(fields);
  const position = fixStart >= 0 ? decodeTextFix(fields, fixStart, now) : undefined;
  const messages = positionMessages(position);
  return type === "V1" ? withAck(messages, frame, deviceId, session, now) : { messages };
}

function positionMessages(position: Position | undefined): DeviceMessage[] {
  return position ? [{ type: "position", position }] : [];
}

function withAck(
  messages: DeviceMessage[],
  frame: TextFrame,
  deviceId: string,
  session: ProtocolSession,
  now: Date,
): TextDecoded {
  if (session.extra[ACK_POSITIONS_KEY] !== true || messages.length === 0) return { messages };
  const stamp = now.toISOString().replace(/\D/g, "").slice(0, 14);
  return { messages, reply: `*${frame.maker},${deviceId},V4,${frame.type},${stamp}#` };
}
