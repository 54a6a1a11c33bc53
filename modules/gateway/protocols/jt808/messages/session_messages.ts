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
 * The gateway chooses the auth code (a random one per registration, stored; or, with
 * JT808_AUTH=lenient, the terminal number) and writes the 0x8100 built by `reply`.
 */
export const register: MessageHandler = (ctx) => {
  const replySerial = ctx.header.serial;
  const reply = (code: string | null) =>
    code === null
      ? registerReply(ctx.address, nextSerial(ctx.session), replySerial, REGISTER_REFUSED, "")
      : registerReply(ctx.address, nextSerial(ctx.session), replySerial, Result.SUCCESS, code);
  let model: string | undefined;
  try {
    const is2019 = ctx.header.version !== null;
    ctx.body.skip(4 + (is2019 ? 11 : 5));
    model = trimControl(decodeGbk(ctx.body.bytes(is2019 ? 30 : 20))) || undefined;
  } catch {
    // short registrations (some devices omit fields) still get registered
  }
  const id = terminalId(ctx.header.terminal);
  return { messages: [{ type: "register", id, reply }], replies: [], model };
};

/**
 * 0x8100 result 3, "terminal already registered": the gateway refuses a registration while
 * the device's authenticated connection is active.
 */
const REGISTER_REFUSED = 3;

/**
 * 0x0102: 2013 — the auth code is the whole body; 2019 — BYTE length, the code, IMEI (15),
 * software version (20). Answered with 0x8001 result 0 or 1 (a terminal refused registers
 * again), as the gateway decides.
 */
export const authenticate: MessageHandler = (ctx) => {
  const code = ctx.header.version === null
    ? ctx.body.rest()
    : ctx.body.bytes(Math.min(ctx.body.u8(), ctx.body.remaining));
  return handled([{
    type: "authenticate",
    code: trimControl(decodeGbk(code)),
    reply: (accepted) => ctx.ack(accepted ? Result.SUCCESS : Result.FAILURE),
  }]);
};

/** Messages that only need a general reply: logout, vendor time-zone sync. */
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
  [MsgId.AUTH, authenticate],
  [MsgId.LOGOUT, ackOnly],
  [MsgId.TIMEZONE_SYNC, ackOnly],
  [MsgId.HEARTBEAT, heartbeat],
  [MsgId.TIME_SYNC_REQUEST, timeSync],
];
