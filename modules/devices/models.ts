/**
 * Device models (mcType) the platform knows, with the protocol their trackers speak.
 * The devices issue extends this with per-model capabilities (commands, sensors, ringtones).
 */
export type ProtocolName = "gt06" | "jt808" | "h02" | "osmand";

/** Application types of spec §3 (icon and default per model). */
export const APPLICATION_TYPES = [
  "car",
  "bus",
  "truck",
  "taxi",
  "motorcycle",
  "drone",
  "person",
  "asset",
  "other",
] as const;

export interface DeviceModel {
  mcType: string;
  protocol: ProtocolName;
  /** Application type default for icons: car, bus, truck, taxi, motorcycle, drone, person, asset. */
  applicationType: string;
  /** Shown in model pickers. */
  name: string;
  /** The model plays uploaded ringtones (spec: ringtone upload only where supported). */
  ringtone?: boolean;
}

export const DEVICE_MODELS: readonly DeviceModel[] = [
  { mcType: "GT06N", protocol: "gt06", applicationType: "car", name: "Concox GT06N" },
  { mcType: "GT800", protocol: "gt06", applicationType: "car", name: "Concox GT800" },
  { mcType: "JM-VL01", protocol: "gt06", applicationType: "car", name: "Jimi VL01" },
  { mcType: "JM-LL01", protocol: "gt06", applicationType: "asset", name: "Jimi LL01 (asset)" },
  {
    mcType: "AT4",
    protocol: "gt06",
    applicationType: "person",
    name: "Concox AT4 (personal)",
    ringtone: true,
  },
  { mcType: "JT808", protocol: "jt808", applicationType: "truck", name: "JT/T 808 terminal" },
  {
    mcType: "JC400",
    protocol: "jt808",
    applicationType: "car",
    name: "Jimi JC400 (dashcam)",
    ringtone: true,
  },
  { mcType: "H02", protocol: "h02", applicationType: "car", name: "H02 tracker" },
  { mcType: "TK103-H02", protocol: "h02", applicationType: "motorcycle", name: "TK103 (H02)" },
  {
    mcType: "OsmAnd",
    protocol: "osmand",
    applicationType: "person",
    name: "Phone (Traccar Client / OsmAnd)",
  },
];

const BY_TYPE = new Map(DEVICE_MODELS.map((m) => [m.mcType, m]));

export function findModel(mcType: string): DeviceModel | undefined {
  return BY_TYPE.get(mcType);
}
