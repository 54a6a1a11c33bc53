/**
 * Text answers to server commands. 0x15: length, server flag, ASCII text, language.
 * 0x21: server flag, encoding (1 ASCII, 2 UTF-16BE), text. The server flag is the `ref` the
 * command was sent with, so it becomes `commandRef`.
 */

import type { Position } from "../../types.ts";
import { latin1 } from "../reader.ts";
import type { DecodeContext, Handler } from "./context.ts";
import { kmhToKnots } from "./gps.ts";

function serverFlag(bytes: Uint8Array, at: number): number {
  return bytes[at] * 0x1000000 + ((bytes[at + 1] << 16) | (bytes[at + 2] << 8) | bytes[at + 3]);
}

function clean(text: string): string {
  return text.replaceAll("\0", "").trim();
}

function emitReply(ctx: DecodeContext, text: string, commandRef: number): void {
  ctx.messages.push({ type: "commandReply", text, commandRef });
  const iccid = /<ICCID:([\dA-Fa-f]{19,20})/.exec(text);
  if (iccid) ctx.status(ctx.now(), { attributes: { iccid: iccid[1] } });
  const position = parseCurrentPosition(text);
  if (position) ctx.position(position);
}

/** 0x15. Some firmwares leave the length byte at 0 and pad with NULs; then the text runs to the language word. */
export const stringReply: Handler = (ctx) => {
  const c = ctx.frame.content;
  if (c.length < 5) return;
  const declared = c[0];
  const end = declared >= 4 && 1 + declared <= c.length ? 1 + declared : c.length - 2;
  if (end < 5) return;
  emitReply(ctx, clean(latin1(c.subarray(5, end))), serverFlag(c, 1));
};

/** 0x21. */
export const stringInfo: Handler = (ctx) => {
  const c = ctx.frame.content;
  if (c.length < 5) return;
  const body = c.subarray(5);
  const text = c[4] === 2 ? new TextDecoder("utf-16be").decode(body) : latin1(body);
  emitReply(ctx, clean(text), serverFlag(c, 0));
};

const CURRENT_POSITION = new RegExp(
  "Current position!Lat:([NS])([\\d.]+),Lon:([EW])([\\d.]+),Course:([\\d.]+),Speed:([\\d.]+)," +
    "DateTime:(\\d{4})-(\\d\\d)-(\\d\\d) +(\\d\\d):(\\d\\d):(\\d\\d)",
);

/** Answer to a position query ("WHERE#"), e.g. "Current position!Lat:N54.73,Lon:E25.27,…". */
export function parseCurrentPosition(text: string): Position | undefined {
  const m = CURRENT_POSITION.exec(text);
  if (!m) return undefined;
  const [, ns, lat, ew, lon, course, speed, y, mo, d, h, mi, s] = m;
  return {
    time: new Date(Date.UTC(+y, +mo - 1, +d, +h, +mi, +s)),
    valid: true,
    latitude: ns === "S" ? -lat : +lat,
    longitude: ew === "W" ? -lon : +lon,
    altitude: 0,
    speed: kmhToKnots(+speed),
    course: +course,
    posType: 1,
    attributes: {},
  };
}
