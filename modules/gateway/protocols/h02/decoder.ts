/**
 * H02 frame decoder: one frame from the splitter in, typed messages and replies out.
 *
 * Every H02 frame names its device, so identity is announced with an `identify` message
 * whenever the id differs from the session's (normally once, on the first frame). Frames
 * with an empty id belong to the device already identified on the connection; before any
 * identification they are dropped because nothing could be attributed to them.
 */

import type { DecodeResult, DeviceMessage, ProtocolSession } from "../types.ts";
import { decodeBinary } from "./binary.ts";
import { ascii, latin1 } from "./fields.ts";
import { decodeText } from "./text.ts";
import { parseTextFrame } from "./text_frame.ts";

const TEXT_START = 0x2a; // '*'
const BINARY_STARTS = new Set([0x24, 0x58]); // '$', 'X'

interface FrameContent {
  /** Id carried by the frame ("" when the firmware left it out). */
  id: string;
  messages: DeviceMessage[];
  reply?: string;
}

export function decodeH02(
  frame: Uint8Array,
  session: ProtocolSession,
  now: Date = new Date(),
): DecodeResult {
  const content = frame[0] === TEXT_START
    ? decodeTextContent(frame, session, now)
    : BINARY_STARTS.has(frame[0])
    ? decodeBinaryContent(frame)
    : undefined;
  const id = content?.id || session.deviceId;
  if (!content || !id) return { messages: [], replies: [] };

  const messages: DeviceMessage[] = [];
  if (content.id && content.id !== session.deviceId) {
    session.deviceId = content.id;
    messages.push({ type: "identify", id: content.id });
  }
  messages.push(...content.messages);
  return { messages, replies: content.reply ? [ascii(content.reply)] : [] };
}

function decodeTextContent(
  frame: Uint8Array,
  session: ProtocolSession,
  now: Date,
): FrameContent | undefined {
  const parsed = parseTextFrame(latin1(frame));
  if (!parsed) return undefined;
  const deviceId = parsed.id || session.deviceId;
  if (!deviceId) return undefined;
  return { id: parsed.id, ...decodeText(parsed, deviceId, session, now) };
}

function decodeBinaryContent(frame: Uint8Array): FrameContent | undefined {
  const decoded = decodeBinary(frame);
  if (!decoded) return undefined;
  return { id: decoded.id, messages: [{ type: "position", position: decoded.position }] };
}
