/**
 * What one report query works with: the checked devices and range, the page, and the
 * sources the reports read (motion segments and day summaries, tracks, alerts, addresses,
 * the devices' current state). Each report is a function of these.
 */
import type { DriverTimeline } from "../fleet/model.ts";
import type { Lang } from "../../lib/i18n/i18n.ts";
import type { AlertHistory } from "../alerts/types.ts";
import type { DeviceDirectory } from "../devices/directory.ts";
import type { Device } from "../devices/model.ts";
import type { Geocoder } from "../geocoder/service.ts";
import type { MotionReader } from "../motion/types.ts";
import type { TrackReader } from "../positions/types.ts";
import type { SensorReader } from "../sensors/types.ts";

export interface ReportQuery {
  /** The named devices, each once, in the request's order (all visible to the caller). */
  devices: Device[];
  /** Epoch ms, inclusive. */
  from: number;
  to: number;
  /** Rows before the page, and the page's size. */
  skip: number;
  take: number;
  lang: Lang;
  /** The caller's working account: its landmarks name places after the device owner's. */
  viewerId: string;
  now: number;
}

export interface ReportSources {
  motion: MotionReader;
  tracks: TrackReader;
  alerts: AlertHistory;
  geocoder: Pick<Geocoder, "describeMany">;
  directory: Pick<DeviceDirectory, "state">;
  /** The limit a device's precomputed overspeed streaks were cut at (km/h). */
  overspeedLimit(imei: string): number;
  /** How long a silent device stays online (its current status). */
  offlineMs: number;
  /**
   * The devices' sensor readings and events (the sensor reports); absent when the sensor area
   * is not composed — every device then "reports no such sensor".
   */
  sensors?: SensorReader;
  /** Who drove a device when (fleet swipes, else the vehicle's driver): trips name their driver. */
  drivers?: DriverTimeline;
  /** A device's temperature thresholds (its alarm data), °C; null where not set. */
  temperatureLimits(imei: string): { min: number | null; max: number | null };
}

/** One row of a report: `imei` and `deviceName` first, values in km, km/h, s, ISO UTC. */
export type Row = Record<string, unknown> & { imei: string; deviceName: string };

export interface Page {
  total: number;
  list: Row[];
  /** Sensor reports: the named devices that report no such sensor (spec: never zeros). */
  unsupported?: string[];
}
