/** The sensor reports' API summaries (routes.ts adds the shared request and answer notes). */
import type { SensorReportName } from "./sensor_model.ts";

const NONE = "; devices without the sensor are listed in data.unsupported (never rows of zeros)";

export const SENSOR_SUMMARIES: Record<SensorReportName, string> = {
  internalBattery: `Internal battery readings: time, voltage (V), percent${NONE}`,
  externalBattery: `External power readings: time, voltage (V)${NONE}`,
  positioningBattery: `Battery readings with the position and address${NONE}`,
  fuelConsumption:
    `Fuel consumption: view "segment" per trip, "day" per UTC day; litres used (level drop + refuelled − drained) and L/100 km${NONE}`,
  currentFuel:
    `Fuel level readings (litres, percent) with place; page 1 adds data.chart with refuels and drains marked${NONE}`,
  refueling:
    `Refuelling: list[{imei, deviceName, time, lat, lng, address, before, after, amount}] in litres${NONE}`,
  temperatureHumidity:
    `Temperature (°C) and humidity (%RH) per probe, outOfRange against the device's min/max temperature; page 1 adds data.summary (min/max/avg, out-of-range intervals) and data.chart${NONE}`,
  logistics: `Per trip: distance, temperature min/max/avg (°C), door openings and time open${NONE}`,
  obdTrip:
    `OBD trips: the motion trips of OBD devices with top rpm, coolant (°C) and fuel burnt; id opens /new/OBDTripReportInfo/{id}${NONE}`,
  obdTripInfo:
    `OBD readings over a range (a trip's details): speed, rpm, coolant, throttle, engine load, fuel rate (L/h), odometer (km)${NONE}`,
  obdFault: `OBD fault codes with time and place${NONE}`,
  canData:
    `CAN/OBD readings: speed, rpm, coolant, throttle, engine load, fuel rate, odometer${NONE}`,
  drivingBehavior:
    `Per device: harsh acceleration, braking and cornering counts, events per 100 km and a score 0-100 (100 − 10 per event per 100 km; null under 1 km)${NONE}`,
  clockIn:
    `RFID clock-ins: clockType "all" or 1 (clock-in only) list swipes, 2 pairs clock-in and clock-out into shifts${NONE}`,
  bluetoothClockIn:
    `Bluetooth clock-ins: clockType "all" or 1 (clock-in only) list swipes, 2 pairs them into shifts${NONE}`,
  carriageMileage: `Vehicle odometer per UTC day: start, end and distance (km)${NONE}`,
  sensorData:
    `Sensor readings by sensorType: 1 temperature (°C), 2 humidity (%RH), 3 door (open/closed), 4 light (light/dark), per probe${NONE}`,
  fuelDaily:
    `Per device and UTC day: start and end level, refuelled, drained, used (L), distance, L/100 km${NONE}`,
  stateStatistics:
    "Per device: online and offline time over the range, how often each began, online share (%)",
};
