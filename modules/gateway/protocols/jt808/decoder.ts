/**
 * JT/T 808 (2013 and 2019) frame decoder.
 *
 * Input: one frame from {@link Jt808Splitter} — 0x7E, unescaped content, 0x7E — or an ASCII
 * "(…)" sentence. Output: typed messages plus the replies to write once they are stored.
 *
 * CHECK CODE DECISION: a frame whose XOR check code is wrong is still decoded when its header
 * parses. Real terminals send such frames (some also with a wrong body length field), the
 * reference captures include them with expected decodes, and the TCP layer
 * already protects the bytes in transit; dropping them would lose real positions while
 * the terminal, getting no reply, would resend the same bad frame forever. Each such frame is
 * counted in `session.extra.jt808BadChecksums` (and `jt808LengthMismatches` for a body length
 * field that disagrees with the frame), so a flood of them is visible. The body is always
 * what lies between header and check code: the frame boundaries are authoritative, the 10-bit
 * length field is not.
 *
 * Other rules:
 * - Never throws: truncated or random bytes give `{messages: [], replies: []}`.
 * - Every frame carries the terminal phone number; the first decoded frame of a session
 *   emits `identify` (full digit string, see identity.ts) and sets `session.deviceId`. When
 *   that frame has the 2019 version bit, `identify.fallback` names its 2013 reading too.
 * - 0x0100 and 0x0102 give "register" / "authenticate" messages whose replies the gateway
 *   builds once it decided (auth codes are its business); every other frame carries a
 *   `refusal` (0x8001 failure) for a connection not authenticated yet.
 * - Replies use the terminal's own version (2013/2019) and phone field.
 * - Subpackaged (bit 13) multimedia uploads (0x0801) are reassembled (subpackages.ts); other
 *   subpackaged and RSA-encrypted bodies get a 0x8001 "not supported" so the terminal does not
 *   wait for a reply.
 * - Unknown message ids get 0x8001 "not supported" as well.
 */
import type { DecodeResult, DeviceMessage, ProtocolSession } from "../types.ts";
import { ByteReader, Truncated } from "./bytes.ts";
import { xorChecksum } from "./checksum.ts";
import { MsgId, Result } from "./constants.ts";
import { FLAG } from "./escape.ts";
import { readHeader } from "./header.ts";
import { terminalId } from "./identity.ts";
import { type Handled, MessageContext } from "./messages/context.ts";
import { HANDLERS } from "./messages/index.ts";
import { decodeSentence } from "./messages/sentence.ts";
import { count, rememberTerminal } from "./session_state.ts";
import { addPart, reassembles } from "./subpackages.ts";

/** Shortest content: 2013 header (12 bytes) + check code. */
const MIN_CONTENT_BYTES = 13;
const SENTENCE_OPEN = 0x28;

export interface DecodeOptions {
  /** Clock for receive-time stamps and time-sync answers (tests pin it). */
  now?: () => Date;
  /** Sees every error swallowed while decoding (tests use it to tell bugs from bad input). */
  onError?: (error: unknown) => void;
}

export function decodeFrame(
  frame: Uint8Array,
  session: ProtocolSession,
  options: DecodeOptions = {},
): DecodeResult {
  const now = options.now ?? (() => new Date());
  try {
    if (frame.length > 0 && frame[0] === SENTENCE_OPEN) return decodeAscii(frame, session, now);
    return decodeBinary(frame, session, now);
  } catch (error) {
    // Truncated content is expected from hostile or broken devices; anything else is a
    // decoder bug. Both are counted (as gt06 does) and the frame dropped, the link kept.
    count(session, error instanceof Truncated ? "truncated" : "decodeErrors");
    options.onError?.(error);
    return { messages: [], replies: [] };
  }
}

function decodeAscii(frame: Uint8Array, session: ProtocolSession, now: () => Date): DecodeResult {
  const { result, terminalId: id } = decodeSentence(frame, now());
  if (id !== undefined) return withIdentity(result, session, id, undefined);
  return result;
}

function decodeBinary(frame: Uint8Array, session: ProtocolSession, now: () => Date): DecodeResult {
  if (frame.length < MIN_CONTENT_BYTES + 2) return { messages: [], replies: [] };
  if (frame[0] !== FLAG || frame[frame.length - 1] !== FLAG) return { messages: [], replies: [] };
  const content = frame.subarray(1, frame.length - 1);
  const checkIndex = content.length - 1;
  const reader = new ByteReader(content, 0, checkIndex);
  const header = readHeader(reader, session.extra.jt808Reading === READ_AS_2013);
  const bodyBytes = reader.remaining;
  const ctx = new MessageContext(header, reader, session, now);

  let handled: Handled;
  if (!header.encrypted && reassembles(header)) {
    handled = reassembled(ctx);
  } else if (header.subpackage || header.encrypted) {
    handled = { messages: [], replies: [ctx.ack(Result.NOT_SUPPORTED)] };
  } else {
    const handler = HANDLERS.get(header.msgId);
    handled = handler ? handler(ctx) : { messages: [], replies: [ctx.ack(Result.NOT_SUPPORTED)] };
  }

  // Session state changes only once the frame decoded without error.
  if (xorChecksum(content, 0, checkIndex) !== content[checkIndex]) {
    count(session, "jt808BadChecksums");
  }
  if (header.bodyLength !== bodyBytes) {
    count(session, "jt808LengthMismatches");
  }
  rememberTerminal(session, header);
  const result: DecodeResult = { messages: handled.messages, replies: handled.replies };
  if (!CREDENTIAL_MESSAGES.has(header.msgId)) {
    // Before authentication the gateway answers "failure" instead (the terminal then
    // authenticates, or registers again).
    result.refusal = () => ctx.ack(Result.FAILURE);
  }
  const id = terminalId(header.terminal);
  const fallback = header.version !== null && session.deviceId === undefined
    ? reading2013(content)
    : undefined;
  return withIdentity(result, session, id, handled.model, fallback);
}

/**
 * A part of a subpackaged upload (0x0801) is acknowledged; the last part decodes the whole body
 * with the message's handler.
 */
function reassembled(ctx: MessageContext): Handled {
  const whole = addPart(ctx.session, ctx.header, ctx.body.rest());
  if (!whole) return { messages: [], replies: [ctx.ack()] };
  const full = new MessageContext(ctx.header, new ByteReader(whole), ctx.session, ctx.now);
  return HANDLERS.get(ctx.header.msgId)!(full);
}

/** Messages a terminal sends before it may report: registration and authentication. */
const CREDENTIAL_MESSAGES = new Set<number>([MsgId.REGISTER, MsgId.AUTH]);

/** `session.extra.jt808Reading`: the session's frames are 2013 ones whatever bit 14 says. */
const READ_AS_2013 = 2013;

/**
 * The terminal id a frame with the 2019 version bit names when read as 2013 (some vendors set
 * bit 14, reserved in 2013, on 2013 frames): the gateway uses it when the 2019 reading names
 * no known device and this one does, and the session then reads every frame as 2013.
 */
function reading2013(content: Uint8Array): { id: string; extra: Record<string, unknown> } {
  return { id: terminalId(content.subarray(4, 10)), extra: { jt808Reading: READ_AS_2013 } };
}

function withIdentity(
  result: DecodeResult,
  session: ProtocolSession,
  id: string,
  model: string | undefined,
  fallback?: { id: string; extra: Record<string, unknown> },
): DecodeResult {
  if (session.deviceId !== undefined) return result;
  session.deviceId = id;
  const identify: Extract<DeviceMessage, { type: "identify" }> = { type: "identify", id };
  if (model) identify.model = model;
  if (fallback && fallback.id !== id) identify.fallback = fallback;
  return { ...result, messages: [identify, ...result.messages] };
}
