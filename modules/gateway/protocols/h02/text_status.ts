/** Text frames without a location: heartbeats, LINK status and SMS command answers. */

import type { DeviceMessage } from "../types.ts";
import { parseDateTime, parseStatusWord, parseUnsigned } from "./fields.ts";
import { decodeStatus } from "./status.ts";

type StatusMessage = DeviceMessage & { type: "status" };

/** `HTBT[,battery%]` / `V0[,battery%]` / `XT,...`: keep-alive, optionally with battery. */
export function decodeHeartbeat(fields: string[], now: Date): StatusMessage {
  const message: StatusMessage = { type: "status", time: now, attributes: {} };
  const battery = parseUnsigned(fields[0], 10);
  if (battery !== undefined && battery <= 100) message.battery = battery;
  return message;
}

/** `LINK,hhmmss,rssi,satellites,battery%,steps,rolls,ddmmyy,status` (wearable firmwares). */
export function decodeLink(fields: string[], now: Date): StatusMessage {
  const message: StatusMessage = {
    type: "status",
    time: parseDateTime(fields[0] ?? "", fields[6] ?? "") ?? now,
    attributes: {},
  };
  const named: Array<[key: string, index: number]> = [
    ["rssi", 1],
    ["satellites", 2],
    ["steps", 4],
    ["rolls", 5],
  ];
  for (const [key, index] of named) {
    const value = parseUnsigned(fields[index], 10);
    if (value !== undefined) message.attributes[key] = value;
  }
  const battery = parseUnsigned(fields[3], 10);
  if (battery !== undefined && battery <= 100) message.battery = battery;
  const status = parseStatusWord(fields[7]);
  if (status !== undefined) {
    const info = decodeStatus(status);
    message.acc = info.acc;
    if (info.alarm) message.alarm = info.alarm;
    Object.assign(message.attributes, info.attributes);
  }
  return message;
}

/** `SMS,<free text>`: the device forwards the text answer to a command (e.g. a config dump). */
export function decodeSms(body: string): DeviceMessage[] {
  return body === "" ? [] : [{ type: "commandReply", text: body }];
}
