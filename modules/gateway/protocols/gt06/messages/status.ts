/** Status / heartbeat packets (0x13, 0x23, 0x36). Devices expect each to be acknowledged. */

import type { ByteReader } from "../reader.ts";
import { vl103Location } from "./alarm_location.ts";
import type { DecodeContext, Handler, Telemetry } from "./context.ts";
import { looksLikeDate } from "./gps.ts";
import {
  applyAlarmCode,
  applyGsmSignal,
  applyTerminalInfo,
  applyVoltageLevel,
  readStatusBlock,
} from "./terminal.ts";

function emitStatus(ctx: DecodeContext, read: (r: ByteReader, t: Telemetry) => void): void {
  const t: Telemetry = { attributes: {} };
  read(ctx.reader(), t);
  ctx.status(ctx.now(), t);
  ctx.ack();
}

/** 0x13: the layout depends on the content size, and for 5-byte packets on the model. */
export const heartbeatStatus: Handler = (ctx) => {
  const size = ctx.frame.content.length;
  if (size === 14) return emitStatus(ctx, readObdStatus);
  if (size === 16) return emitStatus(ctx, readExtendedStatus);
  emitStatus(ctx, (r, t) => readModelStatus(r, t, ctx.model));
};

/**
 * Standard block (info, voltage level, GSM, alarm, language) with model deviations:
 * R11 sends external power instead of the level; LW* units send power in the last word;
 * SEEWORLD units send whole volts in the alarm byte.
 */
function readModelStatus(r: ByteReader, t: Telemetry, model: string): void {
  if (model === "R11") {
    applyTerminalInfo(t, r.u8());
    t.attributes.power = r.u16() / 100;
    applyGsmSignal(t, r.u8());
    applyAlarmCode(t, r.u8(), model);
  } else if (model.startsWith("LW")) {
    applyTerminalInfo(t, r.u8());
    applyVoltageLevel(t, r.u8());
    applyGsmSignal(t, r.u8());
    t.attributes.power = (r.u16() & 0x0fff) / 10;
  } else if (model === "SEEWORLD") {
    applyTerminalInfo(t, r.u8());
    applyVoltageLevel(t, r.u8());
    applyGsmSignal(t, r.u8());
    t.attributes.power = r.u8();
  } else {
    readStatusBlock(r, t, model);
  }
}

/**
 * OBD units (14 bytes): info, satellites/RSSI word, alarm, language, battery %, mode,
 * external power, reserved, working time, temperature (0.1 °C).
 */
function readObdStatus(r: ByteReader, t: Telemetry): void {
  applyTerminalInfo(t, r.u8());
  const signal = r.u16();
  t.attributes.satellites = ((signal >> 10) & 0x1f) + ((signal >> 5) & 0x1f);
  t.attributes.rssi = signal & 0x1f;
  applyAlarmCode(t, r.u8(), "");
  r.skip(1); // language
  t.battery = Math.min(r.u8(), 100);
  r.skip(1); // working mode
  t.attributes.power = r.u16() / 100;
  r.skip(3); // reserved, working time
  t.attributes.temp1 = r.i16() / 10;
}

/** 16-byte variant: content type, satellites, alarm, language, battery %, mode, voltages… */
function readExtendedStatus(r: ByteReader, t: Telemetry): void {
  r.skip(3); // information content, satellites
  applyAlarmCode(t, r.u8(), "");
  r.skip(1); // language
  t.battery = Math.min(r.u8(), 100);
}

/** 0x23 (GK310 heartbeat): armed/ACC/charging bits, battery voltage, GSM signal. */
export const gk310Heartbeat: Handler = (ctx) =>
  emitStatus(ctx, (r, t) => {
    const info = r.u8();
    t.attributes.armed = (info & 0x01) !== 0;
    t.acc = (info & 0x02) !== 0;
    t.attributes.charging = (info & 0x04) !== 0;
    if (r.remaining >= 2) t.attributes.batteryVoltage = r.u16() / 100;
    if (r.remaining >= 1) applyGsmSignal(t, r.u8());
  });

/** 0x36: Jimi 4G status (standard block + id/length/value modules), or VL103 GPS status. */
export const status36: Handler = (ctx) => {
  const content = ctx.frame.content;
  if (content.length >= 35 && looksLikeDate(content, 0)) return vl103Location(ctx);
  emitStatus(ctx, (r, t) => {
    readStatusBlock(r, t, ctx.model);
    while (r.remaining >= 3) {
      const id = r.u16();
      const value = r.bytesOf(r.u8());
      if (id === 0x0018 && value.length >= 2) {
        t.attributes.batteryVoltage = ((value[0] << 8) | value[1]) / 100;
      }
      if (id === 0x0032 && value.length >= 1) t.attributes.startupStatus = value[0];
      if (id === 0x006a && value.length >= 1) t.battery = Math.min(value[0], 100);
    }
  });
};
