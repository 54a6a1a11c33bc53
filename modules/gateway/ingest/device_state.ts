import { type DeviceState, MOVING_SPEED_KMH, type StoredPosition } from "../../devices/model.ts";

export function emptyState(imei: string): DeviceState {
  return {
    imei,
    hbTime: null,
    gpsTime: null,
    position: null,
    acc: null,
    battery: null,
    signal: null,
    sleeping: false,
    poweredOff: false,
    lastMovingAt: null,
  };
}

/** Records that the device said something at `receivedAt`. */
export function heard(state: DeviceState, receivedAt: number): void {
  state.hbTime = Math.max(state.hbTime ?? 0, receivedAt);
}

export function applyReadings(
  state: DeviceState,
  acc: boolean | null,
  battery: number | null,
  signal: number | null,
): void {
  if (acc !== null) state.acc = acc;
  if (battery !== null) state.battery = battery;
  if (signal !== null) state.signal = signal;
}

/**
 * Moves the live state to a stored fix if it is the newest one; returns whether it did
 * (re-uploads of the past do not move it). The same rule rebuilds states from the journal
 * after a crash, so it must depend on nothing but the state and the point.
 */
export function advanceToFix(state: DeviceState, p: StoredPosition): boolean {
  if (state.gpsTime !== null && p.time < state.gpsTime) return false;
  state.gpsTime = p.time;
  state.position = p;
  if (p.speed >= MOVING_SPEED_KMH) state.lastMovingAt = p.time;
  applyReadings(state, p.acc, p.battery, p.signal);
  state.sleeping = false;
  state.poweredOff = false;
  return true;
}
