/** Registration, authentication, heartbeat, logout and clock messages. */
import { decodeGbk, trimControl } from "../bytes.ts";
import { MsgId, Result } from "../constants.ts";
import { registerReply, timeSyncReply } from "../encoder.ts";
import { terminalId } from "../identity.ts";
import { Readings, toStatus } from "../readings.ts";
import { nextSerial } from "../session_state.ts";
import { handled, type MessageHandler } from "./context.ts";

/**
 * 0x0100: province, city, manufacturer id, model, terminal id, plate colour, plate. Field sizes
 * grew in 2019 (manufacturer 5→11, model 20→30, terminal id 7→30).
 *
 * The auth code handed out is the terminal id itself: stable across reconnects, so a terminal
 * that re-authenticates with an old code still matches. Auth codes are not checked on 0x0102
 * (identity is the terminal number; the gateway decides whether that device exists).
 */
export const register: MessageHandler = (ctx) => {
  const reply = registerReply(
    ctx.address,
    nextSerial(ctx.session),
    ctx.header.serial,
    Result.SUCCESS,
    terminalId(ctx.header.terminal),
  );
  let model: string | undefined;
  try {
    const is2019 = ctx.header.version !== null;
    ctx.body.skip(4 + (is2019 ? 11 : 5));
    model = trimControl(decodeGbk(ctx.body.bytes(is2019 ? 30 : 20))) || undefined;
  } catch {
    // short registrations (some devices omit fields) still get registered
  }
  return { messages: [], replies: [reply], model };
};

/** Messages that only need a general reply: auth, logout, vendor time-zone sync. */
export const ackOnly: MessageHandler = (ctx) => handled([], [ctx.ack()]);

/** 0x0002: empty in the standard; some devices append battery %, CSQ and a status byte. */
export const heartbeat: MessageHandler = (ctx) => {
  const out = new Readings();
  if (ctx.body.remaining >= 3) {
    out.batteryPercent(ctx.body.u8());
    out.rssi(ctx.body.u8());
    out.set("status", ctx.body.u8());
  }
  return handled([toStatus(ctx.now(), out)], [ctx.ack()]);
};

/** 0x0109 (vendor): the terminal asks for the time; answered with 0x8109 in UTC. */
export const timeSync: MessageHandler = (ctx) =>
  handled([], [timeSyncReply(ctx.address, nextSerial(ctx.session), ctx.now())]);

export const SESSION_HANDLERS: ReadonlyArray<[number, MessageHandler]> = [
  [MsgId.REGISTER, register],
  [MsgId.AUTH, ackOnly],
  [MsgId.LOGOUT, ackOnly],
  [MsgId.TIMEZONE_SYNC, ackOnly],
  [MsgId.HEARTBEAT, heartbeat],
  [MsgId.TIME_SYNC_REQUEST, timeSync],
];
