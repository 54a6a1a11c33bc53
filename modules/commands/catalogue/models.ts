import type { EncoderFamily } from "./protocols.ts";
import { INSTRUCTION_CODES, type InstructionCode } from "./instructions.ts";

export interface ModelInstructions {
  family: EncoderFamily;
  codes: readonly InstructionCode[];
  /** Instructions the operator must confirm with the login password on this model. */
  passwordProtected: readonly InstructionCode[];
}

/** GT06 vehicle trackers take every instruction but arming and disarming (H02 words). */
const GT06_VEHICLE = INSTRUCTION_CODES.filter((c) => c !== "armAlarm" && c !== "disarmAlarm");

const ENGINE_AND_RESET: InstructionCode[] = ["engineCut", "engineRestore", "factoryReset"];
const H02_ALL: InstructionCode[] = [
  "engineCut",
  "engineRestore",
  "armAlarm",
  "disarmAlarm",
  "reportInterval",
  "custom",
];

/**
 * What each model of modules/devices/models.ts accepts. Models missing here (phones on
 * OsmAnd, which take no commands) have no instructions.
 */
export const MODEL_INSTRUCTIONS: Readonly<Record<string, ModelInstructions>> = {
  GT06N: { family: "gt06Legacy", codes: GT06_VEHICLE, passwordProtected: ENGINE_AND_RESET },
  GT800: { family: "gt06Relay", codes: GT06_VEHICLE, passwordProtected: ENGINE_AND_RESET },
  "JM-VL01": { family: "gt06Relay", codes: GT06_VEHICLE, passwordProtected: [] },
  "JM-LL01": {
    family: "gt06Relay",
    codes: ["locate", "status", "reboot", "reportInterval", "custom"],
    passwordProtected: [],
  },
  AT4: {
    family: "gt06Relay",
    codes: [
      "locate",
      "status",
      "reboot",
      "reportInterval",
      "sosNumbers",
      "geofence",
      "geofenceOff",
      "custom",
    ],
    passwordProtected: [],
  },
  JT808: {
    family: "jt808",
    codes: [
      "engineCut",
      "engineRestore",
      "locate",
      "reboot",
      "factoryReset",
      "reportInterval",
      "custom",
    ],
    passwordProtected: ENGINE_AND_RESET,
  },
  JC400: {
    family: "jt808",
    codes: ["locate", "reboot", "factoryReset", "reportInterval", "custom"],
    passwordProtected: ["factoryReset"],
  },
  H02: { family: "h02", codes: H02_ALL, passwordProtected: ["engineCut", "engineRestore"] },
  "TK103-H02": { family: "h02", codes: H02_ALL, passwordProtected: [] },
};
