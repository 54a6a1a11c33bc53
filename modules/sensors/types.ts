/**
 * The seam between the sensor half (modules/sensors: readings kept per device as the gateway
 * decodes them, the device's sensor configuration, tank conversion, refuel/drain detection) and
 * the sensor reports (modules/reports/sensor_*). Not for browser code; browser constants are in
 * modules/sensors/model.ts.
 */

/** One decoded value series kept per device (columnar blocks, like positions). */
export const SENSOR_SERIES = [
  "batteryVoltage", // V, the device's internal battery
  "batteryPercent", // %
  "externalVoltage", // V, the vehicle's power
  "fuelLitres", // L, after the tank conversion (or as the device reports litres)
  "fuelPercent", // %
  "fuelRaw", // the ADC/height value before conversion
  "temperature", // °C, per probe (probe in `index`)
  "humidity", // %RH, per probe
  "door", // 0 closed / 1 open, per input
  "light", // 0 dark / 1 light, per input
  "obdSpeed", // km/h
  "obdRpm",
  "obdCoolant", // °C
  "obdFuelRate", // L/h
  "obdOdometer", // km
  "obdThrottle", // %
  "obdEngineLoad", // %
  "adc", // V, per input
] as const;
export type SensorSeries = typeof SENSOR_SERIES[number];

export interface SensorSample {
  time: number; // ms epoch
  value: number;
  /** Probe or input number (1-based) for per-probe series; 0 otherwise. */
  index: number;
  lat?: number;
  lng?: number;
}

/** Things that happen once rather than series: clock-ins, behaviour events, fault codes, trips. */
export type SensorEventKind =
  | "rfidIn"
  | "rfidOut"
  | "bluetoothIn"
  | "bluetoothOut"
  | "harshAcceleration"
  | "harshBraking"
  | "harshCornering"
  | "obdFault"
  | "obdTrip"
  | "refuel"
  | "drain";

export interface SensorEvent {
  kind: SensorEventKind;
  time: number; // ms epoch
  lat?: number;
  lng?: number;
  /** Kind-specific: card no, fault code(s), litres before/after, trip figures… */
  data: Record<string, string | number | boolean | null>;
}

/** The samples of `series` as columns: bulk reads without an object per sample. */
export interface SampleColumns {
  length: number;
  time: Float64Array;
  value: Float64Array;
  index: Uint8Array;
  /** NaN where the report had no place. */
  lat: Float64Array;
  lng: Float64Array;
}

/** What the reports read. Every range is [from, to) in ms epoch; answers are in time order. */
export interface SensorReader {
  series(imei: string, series: SensorSeries, from: number, to: number): Promise<SensorSample[]>;
  /**
   * The same samples as `series`, as columns (a month of a fleet's fuel is millions of
   * samples; added for the bulk reports, optional so fakes need not have it).
   */
  seriesColumns?(
    imei: string,
    series: SensorSeries,
    from: number,
    to: number,
  ): Promise<SampleColumns>;
  events(imei: string, kinds: SensorEventKind[], from: number, to: number): Promise<SensorEvent[]>;
  /** Which series and event kinds this device has ever reported (for "this device reports no …"). */
  reports(imei: string): Promise<{ series: SensorSeries[]; events: SensorEventKind[] }>;
}
