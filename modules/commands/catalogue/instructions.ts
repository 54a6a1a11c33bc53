import type { ParamDef } from "./params.ts";

/** Every instruction the platform knows; a model offers a subset (see models.ts). */
export const INSTRUCTION_CODES = [
  "engineCut",
  "engineRestore",
  "locate",
  "status",
  "reboot",
  "factoryReset",
  "reportInterval",
  "sosNumbers",
  "geofence",
  "geofenceOff",
  "armAlarm",
  "disarmAlarm",
  "custom",
] as const;
export type InstructionCode = typeof INSTRUCTION_CODES[number];

export type Category = "engine" | "query" | "device" | "settings" | "alarm" | "custom";

/**
 * Why an instruction is dangerous: `immobilises` stops the vehicle (engine cut), `erases`
 * wipes the device's settings (factory reset, after which it may stop reporting). Such an
 * instruction is never preselected and the console confirms it before sending.
 */
export type Danger = "immobilises" | "erases";

export interface InstructionDef {
  code: InstructionCode;
  category: Category;
  params: readonly ParamDef[];
  danger?: Danger;
}

/** Parameters are the same for every model, so one batch can go to mixed models. */
export const INSTRUCTIONS: Readonly<Record<InstructionCode, InstructionDef>> = {
  engineCut: { code: "engineCut", category: "engine", params: [], danger: "immobilises" },
  engineRestore: { code: "engineRestore", category: "engine", params: [] },
  locate: { code: "locate", category: "query", params: [] },
  status: { code: "status", category: "query", params: [] },
  reboot: { code: "reboot", category: "device", params: [] },
  factoryReset: { code: "factoryReset", category: "device", params: [], danger: "erases" },
  reportInterval: {
    code: "reportInterval",
    category: "settings",
    params: [{ key: "seconds", type: "int", min: 10, max: 18000, unit: "s", default: 30 }],
  },
  sosNumbers: {
    code: "sosNumbers",
    category: "settings",
    params: [{ key: "numbers", type: "phones", max: 3 }],
  },
  geofence: {
    code: "geofence",
    category: "settings",
    params: [
      { key: "lat", type: "number", min: -90, max: 90 },
      { key: "lng", type: "number", min: -180, max: 180 },
      // Spec §5 fence radius; devices store it in 100 m steps.
      { key: "radius", type: "int", min: 200, max: 5000, unit: "m", default: 500 },
      { key: "alarm", type: "enum", options: ["in", "out", "both"], default: "both" },
    ],
  },
  geofenceOff: { code: "geofenceOff", category: "settings", params: [] },
  armAlarm: { code: "armAlarm", category: "alarm", params: [] },
  disarmAlarm: { code: "disarmAlarm", category: "alarm", params: [] },
  custom: { code: "custom", category: "custom", params: [{ key: "text", type: "text", max: 200 }] },
};
