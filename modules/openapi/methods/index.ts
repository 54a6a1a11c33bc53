/**
 * Every `/route/rest` method, by area. Methods read services, so the list is built once in
 * app/compose.ts from the services they use (OpenMethodDeps); the dispatcher looks them up
 * by name. One line per area file.
 */
import type { OpenMethod } from "../types.ts";
import { alarmMethods } from "./alarms.ts";
import type { OpenMethodDeps } from "./deps.ts";
import { deviceMethods } from "./devices.ts";
import { fenceMethods } from "./fences.ts";
import { instructionMethods } from "./instructions.ts";
import { locationMethods } from "./locations.ts";
import { reportMethods } from "./reports.ts";
import { trackMethods } from "./tracks.ts";

export type { OpenMethodDeps };

export function openMethods(d: OpenMethodDeps): OpenMethod[] {
  return [
    ...deviceMethods(d),
    ...locationMethods(d),
    ...trackMethods(d),
    ...alarmMethods(d),
    ...instructionMethods(d),
    ...fenceMethods(d),
    ...reportMethods(d),
  ];
}
