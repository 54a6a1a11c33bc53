/** The sensor reports by name (issue 21); service.ts spreads them into its own table. */
import type { Page, ReportQuery, ReportSources } from "./context.ts";
import type { SensorReportName } from "./sensor_model.ts";
import type { ReportBody } from "./schemas.ts";
import { carriageMileageReport, stateStatisticsReport } from "./sensor_devices.ts";
import { clockInReport, drivingBehaviorReport, obdFaultReport } from "./sensor_events.ts";
import { fuelConsumptionReport, fuelDailyReport, refuelingReport } from "./sensor_fuel.ts";
import {
  canDataReport,
  currentFuelReport,
  externalBatteryReport,
  internalBatteryReport,
  obdTripInfoReport,
  positioningBatteryReport,
  sensorDataReport,
} from "./sensor_series_reports.ts";
import { temperatureHumidityReport } from "./sensor_temperature.ts";
import { logisticsReport, obdTripReport } from "./sensor_trips.ts";

export const SENSOR_REPORTS: {
  [N in SensorReportName]: (s: ReportSources, q: ReportQuery, b: ReportBody<N>) => Promise<Page>;
} = {
  internalBattery: (s, q) => internalBatteryReport(s, q),
  externalBattery: (s, q) => externalBatteryReport(s, q),
  positioningBattery: (s, q) => positioningBatteryReport(s, q),
  fuelConsumption: (s, q, b) => fuelConsumptionReport(s, q, b.view),
  currentFuel: (s, q) => currentFuelReport(s, q),
  refueling: (s, q) => refuelingReport(s, q),
  temperatureHumidity: (s, q) => temperatureHumidityReport(s, q),
  logistics: (s, q) => logisticsReport(s, q),
  obdTrip: (s, q) => obdTripReport(s, q),
  obdTripInfo: (s, q) => obdTripInfoReport(s, q),
  obdFault: (s, q) => obdFaultReport(s, q),
  canData: (s, q) => canDataReport(s, q),
  drivingBehavior: (s, q) => drivingBehaviorReport(s, q),
  clockIn: (s, q, b) => clockInReport(s, q, "rfid", b.clockType),
  bluetoothClockIn: (s, q, b) => clockInReport(s, q, "bluetooth", b.clockType),
  carriageMileage: (s, q) => carriageMileageReport(s, q),
  sensorData: (s, q, b) => sensorDataReport(s, q, b.sensorType),
  fuelDaily: (s, q) => fuelDailyReport(s, q),
  stateStatistics: (s, q) => stateStatisticsReport(s, q),
};
