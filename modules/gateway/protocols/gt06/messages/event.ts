/**
 * 0x95 alarm/event packet (JC100/JC400 dash cams). Short form: time + event code. Long form:
 * GPS block without satellites/speed, event code, two reserved bytes, then the names of the
 * video files recorded for the event. JC400 marks its form with 0xFFFF + version and adds
 * satellites, a 2-byte speed after the course word, and supply voltage (0.1 V).
 */

import type { AlarmType } from "../../types.ts";
import { latin1 } from "../reader.ts";
import type { Handler } from "./context.ts";
import { readDateTime, readGps } from "./gps.ts";

const EVENT_ALARMS: Record<number, AlarmType> = {
  0x0e: "lowPower",
  0x76: "temperature",
  0x80: "vibration",
  0x87: "overspeed",
  0x88: "powerCut",
  0x90: "harshAcceleration",
  0x91: "harshBraking",
  0x92: "harshCornering",
  0x93: "accident",
};

/** Code 0x01 is the SOS button on units with GPS, a generic alarm on the short form. */
function eventAlarm(code: number, withGps: boolean): AlarmType | undefined {
  if (code === 0x01) return withGps ? "sos" : "general";
  return EVENT_ALARMS[code];
}

export const event: Handler = (ctx) => {
  const content = ctx.frame.content;
  const r = ctx.reader();
  if (content.length <= 7) {
    const time = readDateTime(r);
    const code = r.u8();
    ctx.status(time, { alarm: eventAlarm(code, false), attributes: { event: code } });
  } else {
    const jc400 = content[0] === 0xff && content[1] === 0xff;
    if (jc400) r.skip(3); // marker, version
    const p = readGps(
      r,
      jc400 ? { speed: "u16", speedAfterCourse: true } : { satellites: false, speed: "none" },
    );
    if (jc400) p.attributes.power = r.u16() / 10;
    const code = r.u8();
    p.attributes.event = code;
    const alarm = eventAlarm(code, true);
    if (alarm) p.alarm = alarm;
    ctx.optional(() => {
      r.skip(2);
      const files = latin1(r.rest()).replaceAll("\0", "").trim();
      if (files) p.attributes.eventFiles = files;
    });
    ctx.position(p);
  }
  ctx.ack();
};
