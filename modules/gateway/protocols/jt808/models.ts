/**
 * Device-model profiles. A few vendors give their own meaning to alarm bits or extra items; the
 * gateway puts the device's model in `session.extra.model` and the profile swaps those pieces
 * in. Everything not overridden decodes the same for every model.
 */
import { type AlarmBits, bitSet, STANDARD_ALARM_BITS } from "./alarms.ts";
import { AOVX_EXTRAS } from "./extras/aovx.ts";
import { decodeBehaviourAlarms } from "./extras/driving.ts";
import { jimiExtension } from "./extras/jimi.ts";
import type { ExtraTable } from "./extras/types.ts";
import type { Readings } from "./readings.ts";

export interface Profile {
  alarmBits: AlarmBits;
  /** Replaces the default handlers of these extra item ids. */
  extras: ExtraTable;
  /** Extra meaning of status bits beyond the standard ones. */
  status?: (status: number, out: Readings) => void;
}

export const DEFAULT_PROFILE: Profile = { alarmBits: STANDARD_ALARM_BITS, extras: {} };

const withoutBits = (bits: AlarmBits, drop: number[]): AlarmBits =>
  new Map([...bits].filter(([bit]) => !drop.includes(bit)));

const PADLOCK: Profile = {
  alarmBits: new Map([[0, "removing"], [4, "removing"], [1, "tamper"]]),
  extras: {},
};

const AOVX: Profile = { alarmBits: new Map([[16, "movement"]]), extras: AOVX_EXTRAS };

const JIMI: Profile = { alarmBits: STANDARD_ALARM_BITS, extras: { 0xe8: jimiExtension } };

const MV_SERIES: Profile = {
  alarmBits: STANDARD_ALARM_BITS,
  extras: {
    // The trailing DWORD of 0x57 has the door alarm in bit 16.
    0x57: (v, out) => {
      if (bitSet(decodeBehaviourAlarms(v, out), 16)) out.alarm("door");
    },
  },
};

const STEP_COUNTER: Profile = {
  alarmBits: STANDARD_ALARM_BITS,
  extras: { 0xf8: (v, out) => out.set("steps", v.u16()) },
};

const PROFILES: ReadonlyArray<[models: string[], profile: Profile]> = [
  [["G-360P", "G-508P"], PADLOCK],
  [["AL300", "GL100"], AOVX],
  [["JC371", "JC181", "JC182", "JC450", "JC451"], JIMI],
  [["MV710G", "MV810G"], MV_SERIES],
  [["C5", "C5L"], STEP_COUNTER],
  // DT800 uses 0xE2 for something that is not fuel.
  [["DT800"], { alarmBits: STANDARD_ALARM_BITS, extras: { 0xe2: () => {} } }],
  // VL300 sets bits 29/30 for something that is not a collision.
  [["VL300"], { alarmBits: withoutBits(STANDARD_ALARM_BITS, [29, 30]), extras: {} }],
  [["G1C Pro"], {
    alarmBits: STANDARD_ALARM_BITS,
    extras: {},
    status: (status, out) => out.set("motion", bitSet(status, 4)),
  }],
];

export function profileFor(model: string | undefined): Profile {
  if (model === undefined) return DEFAULT_PROFILE;
  return PROFILES.find(([models]) => models.includes(model))?.[1] ?? DEFAULT_PROFILE;
}
