/** Messages about the terminal or driver rather than a location: 0x0107, 0x0702, 0x2070. */
import { parseBcdTime } from "../bcd.ts";
import { decodeGbk, trimControl } from "../bytes.ts";
import { MsgId } from "../constants.ts";
import { Readings, toStatus } from "../readings.ts";
import { handled, type MessageHandler } from "./context.ts";

/**
 * 0x0107: WORD type, manufacturer (5), model (20; 30 in 2019), terminal id (7; 30 in 2019),
 * BCD[10] ICCID, BYTE+hardware version, BYTE+firmware version, GNSS and radio property bytes.
 */
export const terminalAttributes: MessageHandler = (ctx) => {
  const b = ctx.body;
  const is2019 = ctx.header.version !== null;
  const out = new Readings();
  b.skip(2 + 5);
  out.set("model", trimControl(decodeGbk(b.bytes(is2019 ? 30 : 20))));
  b.skip(is2019 ? 30 : 7);
  out.set("iccid", b.hex(10));
  try {
    out.set("versionHw", trimControl(decodeGbk(b.bytes(b.u8()))));
    out.set("versionFw", trimControl(decodeGbk(b.bytes(b.u8()))));
  } catch {
    // versions are optional in practice
  }
  return handled([toStatus(ctx.now(), out)], [ctx.ack()]);
};

/**
 * 0x0702 driver identity: BYTE state (1 card inserted, 2 removed), BCD time; on insertion BYTE
 * read result and, if 0, driver name, 20-byte qualification code, issuing agency, BCD validity.
 */
export const driverIdentity: MessageHandler = (ctx) => {
  const b = ctx.body;
  const out = new Readings();
  const state = b.u8();
  out.set("cardStatus", state);
  const time = parseBcdTime(b.bytes(6), ctx.tzMinutes) ?? ctx.now();
  if (state === 1 && b.remaining > 0) {
    const result = b.u8();
    out.set("cardResult", result);
    if (result === 0) {
      out.set("driver", trimControl(decodeGbk(b.bytes(b.u8()))));
      out.set("cardCode", trimControl(b.latin1(20)));
      out.set("cardAgency", trimControl(decodeGbk(b.bytes(b.u8()))));
      out.set("cardValidity", b.hex(4));
    }
  }
  return handled([toStatus(time, out)], [ctx.ack()]);
};

/** 0x2070 (vendor): samples of BCD time + three sign-magnitude axes, kept as a JSON list. */
export const acceleration: MessageHandler = (ctx) => {
  const b = ctx.body;
  const samples: number[][] = [];
  while (b.remaining >= 12) {
    b.skip(6);
    samples.push([signMagnitude(b.u16()), signMagnitude(b.u16()), signMagnitude(b.u16())]);
  }
  const out = new Readings();
  out.set("gSensor", JSON.stringify(samples));
  return handled([toStatus(ctx.now(), out)], [ctx.ack()]);
};

function signMagnitude(raw: number): number {
  return raw & 0x8000 ? -(raw & 0x7fff) : raw;
}

export const DEVICE_INFO_HANDLERS: ReadonlyArray<[number, MessageHandler]> = [
  [MsgId.TERMINAL_ATTRIBUTES, terminalAttributes],
  [MsgId.DRIVER_IDENTITY, driverIdentity],
  [MsgId.ACCELERATION, acceleration],
];
