/**
 * What this protocol keeps in `session.extra` (all keys prefixed "jt808" except `model`):
 * - jt808Version: protocol version byte of a 2019 terminal, null for 2013 (replies must match).
 * - jt808Terminal: hex of the raw terminal phone field, echoed in replies and commands.
 * - jt808Reading: 2013 when the gateway found bit 14 to be a vendor's reserved bit, not the
 *   2019 flag (set through `identify.fallback`, see decoder.ts).
 * - jt808BadChecksums / jt808LengthMismatches: frames accepted despite a wrong check code or
 *   body length (see decoder.ts).
 * - model: device model, set by the gateway from the device record (some layouts depend on it).
 */
import type { ProtocolSession } from "../types.ts";
import { DEFAULT_TZ_MINUTES } from "./bcd.ts";
import { fromHex, toHex } from "./bytes.ts";
import type { Header } from "./header.ts";

export interface TerminalAddress {
  version: number | null;
  terminal: Uint8Array;
}

export function rememberTerminal(session: ProtocolSession, header: Header): void {
  session.extra.jt808Version = header.version;
  session.extra.jt808Terminal = toHex(header.terminal);
}

export function rememberedTerminal(session: ProtocolSession): TerminalAddress | null {
  const hex = session.extra.jt808Terminal;
  if (typeof hex !== "string" || !/^([0-9a-f]{12}|[0-9a-f]{20})$/.test(hex)) return null;
  const version = session.extra.jt808Version;
  return { version: typeof version === "number" ? version : null, terminal: fromHex(hex) };
}

/**
 * Session counters the gateway link reads after each read (device_link.ts SESSION_FAULTS):
 * frames dropped as truncated and decoder exceptions become /metrics series.
 */
export type Counter =
  | "jt808BadChecksums"
  | "jt808LengthMismatches"
  | "truncated"
  | "decodeErrors";

export function count(session: ProtocolSession, key: Counter): void {
  const current = session.extra[key];
  session.extra[key] = (typeof current === "number" ? current : 0) + 1;
}

export function deviceModel(session: ProtocolSession): string | undefined {
  const model = session.extra.model;
  return typeof model === "string" && model !== "" ? model : undefined;
}

export function timezoneMinutes(session: ProtocolSession): number {
  return session.timezoneOffsetMinutes ?? DEFAULT_TZ_MINUTES;
}

/** Serial for the next platform-originated message (wraps at 16 bits). */
export function nextSerial(session: ProtocolSession): number {
  const serial = session.serial & 0xffff;
  session.serial = (serial + 1) & 0xffff;
  return serial;
}
