import type { StoredPosition } from "../devices/model.ts";
import { packBlock, type PositionBlock } from "./codec.ts";

/**
 * Playback JSON, written byte by byte: a month of one device is ~270,000 points (~45 MB).
 * Template strings took ~1.5 µs a point (number-to-string conversions, concatenation, then
 * UTF-8 encoding), ~0.4 s for the first playback of a month; bytes written here take about
 * half of that. Numbers are rounded to what the data means (1e-6° ≈ 0.1 m, 0.1 km/h, 0.01 km)
 * and written as fixed-point digits, which is exactly what JavaScript prints for the rounded
 * value (json_test.ts compares the two).
 */

const COMMA = 0x2c, MINUS = 0x2d, DOT = 0x2e, ZERO = 0x30, COLON = 0x3a;
const ascii = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));
const GPS_TIME = ascii(`{"gpsTime":"`);
const LAT = ascii(`","lat":`);
const LNG = ascii(`,"lng":`);
const SPEED = ascii(`,"speed":`);
const COURSE = ascii(`,"course":`);
const ALTITUDE = ascii(`,"altitude":`);
const POS_TYPE = ascii(`,"posType":`);
const ACC = ascii(`,"acc":`);
const SATELLITES = ascii(`,"satellites":`);
const MILEAGE = ascii(`,"mileage":`);
const TRUE = ascii("true"), FALSE = ascii("false"), NULL = ascii("null");
const END = ascii("}");
/** More than one point can take (every field at its longest). */
const MAX_POINT_BYTES = 400;
const TEN_POWERS = [1, 10, 100, 1000, 10_000, 100_000, 1_000_000];
/** "00" … "99": two digits per division. */
const DIGIT_PAIRS = Uint8Array.from(
  { length: 200 },
  (_, i) => ZERO + (i % 2 ? (i >> 1) % 10 : Math.floor((i >> 1) / 10)),
);
/** Bytes a typical point takes (~167), with room to spare so that few buffers grow. */
const TYPICAL_POINT_BYTES = 180;

/** Appends comma-joined point objects to a growing byte buffer. */
class PointWriter {
  private buf: Uint8Array;
  private at = 0;
  private points = 0;
  /** ISO date part ("YYYY-MM-DDT") of the last day written. */
  private day = NaN;
  private dayPrefix = new Uint8Array(0);

  constructor(expectedPoints: number) {
    this.buf = new Uint8Array(expectedPoints * TYPICAL_POINT_BYTES + MAX_POINT_BYTES);
  }

  point(
    time: number,
    lat: number,
    lng: number,
    speed: number,
    course: number,
    altitude: number,
    posType: number,
    acc: boolean | null,
    satellites: number,
    mileage: number | null,
  ): void {
    if (this.buf.length - this.at < MAX_POINT_BYTES) this.grow();
    if (this.points++ > 0) this.buf[this.at++] = COMMA;
    this.bytes(GPS_TIME);
    this.time(time);
    this.bytes(LAT);
    this.fixed(lat, 6);
    this.bytes(LNG);
    this.fixed(lng, 6);
    this.bytes(SPEED);
    this.fixed(speed, 1);
    this.bytes(COURSE);
    this.number(course);
    this.bytes(ALTITUDE);
    this.fixed(altitude, 1);
    this.bytes(POS_TYPE);
    this.number(posType);
    this.bytes(ACC);
    this.bytes(acc === null ? NULL : acc ? TRUE : FALSE);
    this.bytes(SATELLITES);
    this.number(satellites);
    this.bytes(MILEAGE);
    if (mileage === null) this.bytes(NULL);
    else this.fixed(mileage, 2);
    this.bytes(END);
  }

  /**
   * The bytes written: a view of the buffer, not a copy (copying 45 MB for a month took
   * longer than writing it); `buffer.byteLength` is what it holds in memory.
   */
  result(): Uint8Array {
    return this.buf.subarray(0, this.at);
  }

  private grow(): void {
    const next = new Uint8Array(this.buf.length * 2 + MAX_POINT_BYTES);
    next.set(this.buf.subarray(0, this.at));
    this.buf = next;
  }

  /** Short constants: a plain loop, as `TypedArray.set` costs more than it copies here. */
  private bytes(b: Uint8Array): void {
    const buf = this.buf;
    let at = this.at;
    for (let i = 0; i < b.length; i++) buf[at++] = b[i];
    this.at = at;
  }

  /** An integer's digits (no sign handling: callers pass |n|). */
  private digits(n: number): void {
    if (n < 10) { // satellites, position types, many whole parts
      this.buf[this.at++] = ZERO + n;
      return;
    }
    let width = 2;
    for (let limit = 100; n >= limit && width < 16; limit *= 10) width++;
    this.padded(n, width);
  }

  /** `n` (≥ 0) as a fixed-width number of digits, zero-padded. */
  private padded(n: number, width: number): void {
    const buf = this.buf;
    const start = this.at;
    let i = start + width;
    this.at = i;
    while (i - start >= 2) {
      const q = Math.floor(n / 100);
      const pair = (n - q * 100) * 2;
      buf[--i] = DIGIT_PAIRS[pair + 1];
      buf[--i] = DIGIT_PAIRS[pair];
      n = q;
    }
    if (i > start) buf[--i] = ZERO + (n % 10);
  }

  /** What `String(v)` gives for a number that JSON can hold, else null. */
  private number(v: number): void {
    if (Number.isInteger(v) && Math.abs(v) < 2 ** 31) {
      if (v < 0) this.buf[this.at++] = MINUS;
      this.digits(Math.abs(v));
    } else if (Number.isFinite(v)) {
      this.bytes(ascii(String(v)));
    } else {
      this.bytes(NULL);
    }
  }

  /**
   * `String(Math.round(v * 10^decimals) / 10^decimals)`: the rounded value's digits with
   * trailing zeros (and a bare point) dropped; null for NaN and infinities.
   */
  private fixed(v: number, decimals: number): void {
    const scale = TEN_POWERS[decimals];
    const k = Math.round(v * scale);
    if (!Number.isFinite(k)) return this.bytes(NULL);
    if (Math.abs(k) >= 2 ** 52) return this.number(k / scale);
    if (k === 0) { // also -0, which String() prints as "0"
      this.buf[this.at++] = ZERO;
      return;
    }
    const abs = Math.abs(k);
    if (k < 0) this.buf[this.at++] = MINUS;
    const whole = Math.floor(abs / scale);
    let fraction = abs - whole * scale;
    this.digits(whole);
    if (fraction === 0) return;
    let width = decimals;
    while (fraction % 10 === 0) {
      fraction /= 10;
      width--;
    }
    this.buf[this.at++] = DOT;
    this.padded(fraction, width);
  }

  /** ISO-8601 UTC with milliseconds, as `Date.toISOString`; the date part cached per day. */
  private time(ms: number): void {
    const day = Math.floor(ms / 86_400_000);
    if (day !== this.day) {
      this.day = day;
      this.dayPrefix = ascii(new Date(day * 86_400_000).toISOString().slice(0, -13));
    }
    this.bytes(this.dayPrefix);
    let rest = ms - day * 86_400_000;
    const h = Math.floor(rest / 3_600_000);
    rest -= h * 3_600_000;
    const m = Math.floor(rest / 60_000);
    rest -= m * 60_000;
    const s = Math.floor(rest / 1000);
    const ms3 = rest - s * 1000;
    const buf = this.buf;
    let at = this.at;
    buf[at++] = DIGIT_PAIRS[h * 2];
    buf[at++] = DIGIT_PAIRS[h * 2 + 1];
    buf[at++] = COLON;
    buf[at++] = DIGIT_PAIRS[m * 2];
    buf[at++] = DIGIT_PAIRS[m * 2 + 1];
    buf[at++] = COLON;
    buf[at++] = DIGIT_PAIRS[s * 2];
    buf[at++] = DIGIT_PAIRS[s * 2 + 1];
    buf[at++] = DOT;
    const tens = ms3 % 100;
    buf[at++] = ZERO + (ms3 - tens) / 100;
    buf[at++] = DIGIT_PAIRS[tens * 2];
    buf[at++] = DIGIT_PAIRS[tens * 2 + 1];
    buf[at++] = 0x5a; // Z (the closing quote starts LAT)
    this.at = at;
  }
}

/** Points as comma-joined JSON objects, UTF-8 (empty when there are none). */
export function pointsJson(points: StoredPosition[]): Uint8Array {
  const w = new PointWriter(points.length);
  for (const p of points) {
    w.point(
      p.time,
      p.lat,
      p.lng,
      p.speed,
      p.course,
      p.altitude,
      p.posType,
      p.acc,
      p.satellites,
      p.mileage,
    );
  }
  return w.result();
}

/** The points of a block with from ≤ time ≤ to, as comma-joined JSON objects, UTF-8. */
export function blockJson(b: PositionBlock, from: number, to: number): Uint8Array {
  const w = new PointWriter(b.n);
  for (let i = 0; i < b.n; i++) {
    const t = b.time[i];
    if (t < from || t > to) continue;
    const f = b.flags[i];
    w.point(
      t,
      b.lat[i],
      b.lng[i],
      b.speed[i],
      b.course[i],
      b.altitude[i],
      b.posType[i],
      f & 2 ? (f & 4) === 4 : null,
      b.satellites[i],
      Number.isNaN(b.mileage[i]) ? null : b.mileage[i],
    );
  }
  return w.result();
}

/**
 * Runs the writer over a synthetic day of points so that V8 has compiled it before the
 * first playback after a restart (which otherwise writes its first ~100,000 points in the
 * interpreter and baseline tiers). Takes a few milliseconds at start-up.
 */
export function warmUpPlaybackJson(): void {
  const n = 8640;
  const b = packBlock(Array.from({ length: n }, (_, i) => ({
    time: 1_700_000_000_000 + i * 10_000,
    lat: 22.5 + i * 1e-5,
    lng: -114.05 - i * 1e-5,
    speed: i % 120,
    course: i % 360,
    altitude: 12.5,
    satellites: i % 13,
    posType: 1,
    valid: true,
    acc: i % 3 === 0 ? null : i % 2 === 0,
    mileage: i % 7 === 0 ? null : i * 0.083,
    battery: null,
    signal: null,
    attributes: {},
  })));
  for (let round = 0; round < 5; round++) blockJson(b, -Infinity, Infinity);
}
