/**
 * Protocol encodings of the instructions. Each protocol maps an instruction and its
 * validated parameters to an Encoding; a protocol without an entry cannot carry it.
 *
 * GT06 (Concox command set, 0x80 text): DYD/HFYD with the factory password 000000 on the
 * old GT06N firmware, RELAY,1#/RELAY,0# on newer units; WHERE#, STATUS#, RESET#, FACTORY#,
 * TIMER,T1,T2# (ACC on/off upload intervals), SOS,A,n1,n2,n3#, FENCE,ON,0,lat,lng,R,IN|OUT,1#
 * (R in 100 m), FENCE,OFF#.
 * H02 (`*HQ,id,CMD,hhmmss,params#`, the encoder adds id and time): S20 fuel/power relay,
 * SCF arm/disarm, S71,22,s upload interval.
 * JT/T 808: 0x8105 terminal control (4 reset, 5 factory reset; vendor words 0x64/0x65 cut
 * and restore the fuel line), 0x8103 parameter 0x0029 (default time report interval),
 * 0x8201 position query for "locate now" (answered by 0x0201), 0x8300 text for free text.
 */
import type { ProtocolName } from "../../devices/models.ts";
import { type Encoding, text } from "./encoding.ts";
import type { InstructionCode } from "./instructions.ts";

// deno-lint-ignore no-explicit-any
type Params = Record<string, any>;
type Encoders = Partial<Record<InstructionCode, (p: Params) => Encoding>>;

/** Free text gets the terminating '#' GT06 units expect. */
const gt06Text = (s: string) => text(s.endsWith("#") ? s : `${s}#`);

const fenceAlarm = { in: "IN", out: "OUT", both: "" } as const;

/**
 * The wire commands the instructions use, written out here (the catalogue is the one list of
 * what each instruction sends); the protocols frame them. catalogue_test checks them through
 * the real encoders.
 */
const JT808_CONTROL = { reset: 4, factoryReset: 5, fuelCut: 0x64, fuelRestore: 0x65 } as const;
const H02 = {
  engineStop: "S20,1,1",
  engineResume: "S20,1,0",
  alarmArm: "SCF,0,0",
  alarmDisarm: "SCF,1,1",
  positionPeriodic: (seconds: number) => `S71,22,${Math.max(1, Math.round(seconds))}`,
} as const;

const GT06_COMMON: Encoders = {
  locate: () => text("WHERE#"),
  status: () => text("STATUS#"),
  reboot: () => text("RESET#"),
  factoryReset: () => text("FACTORY#"),
  reportInterval: (p) => text(`TIMER,${p.seconds},${p.seconds}#`),
  sosNumbers: (p) => text(`SOS,A,${[0, 1, 2].map((i) => p.numbers[i] ?? "").join(",")}#`),
  geofence: (p) =>
    text(
      `FENCE,ON,0,${(+p.lat).toFixed(6)},${(+p.lng).toFixed(6)},${Math.ceil(p.radius / 100)},${
        fenceAlarm[p.alarm as keyof typeof fenceAlarm]
      },1#`,
    ),
  geofenceOff: () => text("FENCE,OFF#"),
  custom: (p) => gt06Text(p.text),
};

/** Variants of the engine relay command per firmware family. */
export const ENCODERS = {
  gt06Legacy: {
    ...GT06_COMMON,
    engineCut: () => text("DYD,000000#"),
    engineRestore: () => text("HFYD,000000#"),
  },
  gt06Relay: {
    ...GT06_COMMON,
    engineCut: () => text("RELAY,1#"),
    engineRestore: () => text("RELAY,0#"),
  },
  jt808: {
    engineCut: () => ({ kind: "jt808Control", word: JT808_CONTROL.fuelCut }),
    engineRestore: () => ({ kind: "jt808Control", word: JT808_CONTROL.fuelRestore }),
    locate: () => ({ kind: "jt808Locate" }),
    reboot: () => ({ kind: "jt808Control", word: JT808_CONTROL.reset }),
    factoryReset: () => ({ kind: "jt808Control", word: JT808_CONTROL.factoryReset }),
    reportInterval: (p) => ({ kind: "jt808Params", params: [{ id: 0x0029, value: p.seconds }] }),
    custom: (p) => text(p.text),
  },
  h02: {
    engineCut: () => text(H02.engineStop),
    engineRestore: () => text(H02.engineResume),
    armAlarm: () => text(H02.alarmArm),
    disarmAlarm: () => text(H02.alarmDisarm),
    reportInterval: (p) => text(H02.positionPeriodic(p.seconds)),
    custom: (p) => text(p.text.replace(/#$/, "")),
  },
} satisfies Record<string, Encoders>;

export type EncoderFamily = keyof typeof ENCODERS;

/** Which protocol a family's output goes through (for native frames). */
export const FAMILY_PROTOCOL: Record<EncoderFamily, ProtocolName> = {
  gt06Legacy: "gt06",
  gt06Relay: "gt06",
  jt808: "jt808",
  h02: "h02",
};
