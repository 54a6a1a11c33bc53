/**
 * The sensor test fleet (issue 21, S2): JT/T 808 terminals reporting over real TCP a crafted
 * morning — a reefer truck with fuel (item 0x02, 1/10 L) and two temperature probes (0x51) that
 * parks, is refuelled with 40 L, drives 20 km and parks with probe 1 above 8 °C for 6 minutes;
 * an OBD van (0x81 rpm, 0x84 coolant, 0x85 fuel rate, 0x8c odometer, 0xa0 fault codes) that
 * drives 16 km with a harsh acceleration, braking and cornering, its driver swiping an IC card in and out (0x0702); a plain tracker with no
 * sensor. Used by the API test and the e2e test.
 */
import assert from "node:assert/strict";
import { RawDevice } from "./raw_device.ts";
import { FrameWriter } from "../../modules/simulator/devices/frame_writer.ts";
import {
  JT,
  jt808Auth,
  jt808DriverIdentity,
  jt808Frame,
  jt808Register,
  type Jt808ServerFrame,
  Jt808StreamReader,
  locationBlock,
  simulatorDriverCard,
} from "../../modules/simulator/devices/jt808.ts";
import { concatBytes, latin1Text, sampleFix } from "../../modules/simulator/fix.ts";

export const REEFER = "359018270600011";
export const VAN = "359018270600029";
export const PLAIN = "359018270600037";
const MIN = 60_000;
const M_PER_DEG = 111_320;
/** Minutes from the crafted hour's start (two hours ago, whole minute). */
export const BASE = Math.floor((Date.now() - 2 * 60 * MIN) / MIN) * MIN;
export const at = (m: number) => BASE + m * MIN;

/** One JT/T 808 item: id, length, value. */
const item = (id: number, value: Uint8Array) =>
  new FrameWriter().u8(id).u8(value.length).bytes(value).done();
const u16 = (v: number) => new FrameWriter().u16(v).done();
const u32 = (v: number) => new FrameWriter().u32(v).done();
/** 0x51: eight probes in sign-magnitude tenths, 0xFFFF where none is fitted. */
const temps = (...c: number[]) =>
  item(
    0x51,
    concatBytes(
      Array.from({ length: 8 }, (_, i) => i < c.length ? c[i] : null).map((t) =>
        u16(t === null ? 0xffff : (t < 0 ? 0x8000 : 0) | Math.round(Math.abs(t) * 10))
      ),
    ),
  );

export interface Report {
  minute: number;
  speed: number;
  lat: number;
  acc: boolean;
  odometer: number;
  extras: Uint8Array[];
  /** The driver's IC card inserted or removed (0x0702) just before this report. */
  swipe?: "in" | "out";
}

/** The reefer: parked 0-10 at 60 L, refuelled to 100 L over 10-13, drives 15-35, parks. */
export function reeferDay(): Report[] {
  const out: Report[] = [];
  let lat = 22.54, odometer = 5000, fuel = 60;
  for (let m = 0; m <= 50; m++) {
    const driving = m >= 15 && m < 35;
    if (m >= 10 && m <= 13) fuel = 60 + (40 * (m - 9)) / 4;
    if (driving) {
      lat += 1000 / M_PER_DEG; // 1 km a minute: 60 km/h
      odometer += 1;
      fuel -= 0.15;
    }
    // Probe 1 warms above 8 °C from minute 38 to 44; probe 2 holds -18 °C.
    const t1 = m >= 38 && m < 44 ? 9 + (m - 38) * 0.5 : 5;
    out.push({
      minute: m,
      speed: driving ? 60 : 0,
      lat,
      acc: m >= 13 && m < 37,
      odometer,
      extras: [item(0x02, u16(Math.round(fuel * 10))), temps(t1, -18)],
    });
  }
  return out;
}

/** The van: drives 5-25 with rpm, coolant, a fuel rate, the OBD odometer; a fault at 20. */
export function vanDay(): Report[] {
  const out: Report[] = [];
  let lat = 22.6, odometer = 12000;
  for (let m = 0; m <= 30; m++) {
    const driving = m >= 5 && m < 25;
    if (driving) {
      lat += 800 / M_PER_DEG;
      odometer += 0.8;
    }
    const extras = [
      item(0x81, u16(driving ? 1800 + m * 10 : 800)),
      new FrameWriter().u8(0x84).u8(1).u8((driving ? 70 + m : 60) + 40).done(),
      item(0x85, u16(driving ? 6 : 1)),
      item(0x8c, u32(Math.round(odometer * 10))),
    ];
    if (m === 20) extras.push(item(0xa0, new TextEncoder().encode("P0301,P0420")));
    // Harsh acceleration at 10, braking at 15, cornering at 20 (0xFE 0x7C driving alarm block).
    const harsh = { 10: 0x01, 15: 0x02, 20: 0x04 }[m];
    if (harsh) {
      extras.push(item(0xfe, new FrameWriter().u8(0x7c).u8(0x01).u8(4).u32(harsh).u8(80).done()));
    }
    const swipe = m === 4 ? "in" as const : m === 26 ? "out" as const : undefined;
    out.push({
      minute: m,
      speed: driving ? 48 : 0,
      lat,
      acc: m >= 4 && m < 26,
      odometer,
      extras,
      swipe,
    });
  }
  return out;
}

/** A terminal registers, authenticates and sends its reports (each acknowledged). */
export async function drive(port: number, imei: string, reports: Report[]) {
  const terminal = imei.slice(-12);
  const d = await RawDevice.open<Jt808ServerFrame>(port, new Jt808StreamReader());
  try {
    await d.send(jt808Register(terminal, 1));
    const reg = await d.frame();
    await d.send(jt808Auth(terminal, 2, latin1Text(reg.body.subarray(3))));
    await d.frame();
    let serial = 3;
    for (const r of reports) {
      const fix = sampleFix({
        time: new Date(at(r.minute)),
        latitude: r.lat,
        longitude: 114.05,
        speedKmh: r.speed,
        acc: r.acc,
        odometerKm: r.odometer,
      });
      if (r.swipe) {
        await d.send(jt808DriverIdentity(terminal, serial++, {
          inserted: r.swipe === "in",
          time: new Date(at(r.minute)),
          card: simulatorDriverCard(imei),
        }));
        assert.equal((await d.frame()).msgId, JT.PLATFORM_REPLY);
      }
      const body = concatBytes([locationBlock(fix), ...r.extras]);
      await d.send(jt808Frame(JT.LOCATION, terminal, serial++, body));
      const ack = await d.frame();
      assert.equal(ack.msgId, JT.PLATFORM_REPLY);
    }
  } finally {
    await d.done();
  }
}

/** The three terminals report their morning (the plain one a single parked fix). */
export async function feedSensorFleet(port: number): Promise<void> {
  await drive(port, REEFER, reeferDay());
  await drive(port, VAN, vanDay());
  await drive(port, PLAIN, [{
    minute: 0,
    speed: 0,
    lat: 22.7,
    acc: false,
    odometer: 1,
    extras: [],
  }]);
}
