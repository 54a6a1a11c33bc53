import type { StoredPosition } from "../devices/model.ts";
import {
  attributesJson,
  FIXED_BYTES_PER_POINT,
  MAX_BLOCK_BYTES,
  packBlock,
  type PositionBlock,
  unpackPoint,
} from "./codec.ts";

/**
 * One journal chunk: what one gateway commit stored for many devices, packed like a block.
 * Writing a commit as a few values (instead of a key per position and a state per device)
 * is what lets the disk-backed KV take tens of thousands of positions a second: SQLite then
 * writes a few adjacent B-tree pages per commit rather than several leaves per device.
 */
export interface JournalChunk {
  /** Commit time (epoch ms). */
  at: number;
  /** Devices in the chunk, each with `counts[i]` consecutive points of `block` (maybe 0). */
  imeis: string[];
  counts: Uint32Array;
  block: PositionBlock;
  /** Readings of the devices whose state changed by more than their points (columnar). */
  readings?: ReadingColumns;
}

/**
 * What statuses and heartbeats leave in a device's state besides its fixes, as it was at the
 * end of the commit. Journaled with the positions so a commit does not write one state per
 * device; a replay applies it after the commit's points.
 */
export interface Readings {
  hbTime: number;
  acc: boolean | null;
  battery: number | null;
  signal: number | null;
  sleeping: boolean;
  poweredOff: boolean;
}

interface ReadingColumns {
  /** Index into `imeis` of each reading's device. */
  device: Uint32Array;
  hbTime: Float64Array;
  /** -1 unknown, 0 off, 1 on. */
  acc: Int8Array;
  /** -1 unknown. */
  battery: Int16Array;
  signal: Int16Array;
  /** bit0 sleeping, bit1 powered off. */
  flags: Uint8Array;
}

export interface DevicePoints {
  imei: string;
  points: StoredPosition[];
  readings?: Readings;
}

/** Serialised bytes a reading adds to a chunk (its columns, not counting the imei). */
const READING_BYTES = 4 + 8 + 1 + 2 + 2 + 1;
/** Serialised bytes a device adds to a chunk besides its points and reading. */
const deviceBytes = (imei: string) => imei.length + 8;

/** Packs devices' points and readings into chunks that each stay under the KV value limit. */
export function packJournal(entries: DevicePoints[], at: number): JournalChunk[] {
  const chunks: JournalChunk[] = [];
  let imeis: string[] = [], counts: number[] = [], points: StoredPosition[] = [];
  let attrs: string[] = [], readings: { device: number; r: Readings }[] = [];
  let bytes = 0;
  const flush = () => {
    if (!imeis.length) return;
    const chunk: JournalChunk = {
      at,
      imeis,
      counts: Uint32Array.from(counts),
      block: packBlock(points, attrs),
    };
    if (readings.length) chunk.readings = packReadings(readings);
    chunks.push(chunk);
    imeis = [], counts = [], points = [], attrs = [], readings = [], bytes = 0;
  };
  const startDevice = (imei: string) => {
    imeis.push(imei);
    counts.push(0);
    bytes += deviceBytes(imei);
  };
  for (const e of entries) {
    if (bytes + deviceBytes(e.imei) + READING_BYTES > MAX_BLOCK_BYTES) flush();
    startDevice(e.imei);
    if (e.readings) {
      readings.push({ device: imeis.length - 1, r: e.readings });
      bytes += READING_BYTES;
    }
    for (const p of e.points) {
      const attr = attributesJson(p);
      const size = FIXED_BYTES_PER_POINT + attr.length + 4;
      if (bytes + size > MAX_BLOCK_BYTES) {
        flush();
        startDevice(e.imei);
      }
      counts[counts.length - 1]++;
      points.push(p);
      attrs.push(attr);
      bytes += size;
    }
  }
  flush();
  return chunks;
}

function packReadings(list: { device: number; r: Readings }[]): ReadingColumns {
  const n = list.length;
  const c: ReadingColumns = {
    device: new Uint32Array(n),
    hbTime: new Float64Array(n),
    acc: new Int8Array(n),
    battery: new Int16Array(n),
    signal: new Int16Array(n),
    flags: new Uint8Array(n),
  };
  list.forEach(({ device, r }, i) => {
    c.device[i] = device;
    c.hbTime[i] = r.hbTime;
    c.acc[i] = r.acc === null ? -1 : r.acc ? 1 : 0;
    c.battery[i] = r.battery ?? -1;
    c.signal[i] = r.signal ?? -1;
    c.flags[i] = (r.sleeping ? 1 : 0) | (r.poweredOff ? 2 : 0);
  });
  return c;
}

/** The points and readings of each device in a chunk, in the order they were written. */
export function unpackJournal(chunk: JournalChunk): DevicePoints[] {
  const out: DevicePoints[] = [];
  let i = 0;
  chunk.imeis.forEach((imei, d) => {
    const points: StoredPosition[] = [];
    for (const end = i + chunk.counts[d]; i < end; i++) points.push(unpackPoint(chunk.block, i));
    out.push({ imei, points });
  });
  const c = chunk.readings;
  for (let k = 0; c && k < c.device.length; k++) out[c.device[k]].readings = readingAt(c, k);
  return out;
}

function readingAt(c: ReadingColumns, k: number): Readings {
  return {
    hbTime: c.hbTime[k],
    acc: c.acc[k] < 0 ? null : c.acc[k] === 1,
    battery: c.battery[k] < 0 ? null : c.battery[k],
    signal: c.signal[k] < 0 ? null : c.signal[k],
    sleeping: (c.flags[k] & 1) === 1,
    poweredOff: (c.flags[k] & 2) === 2,
  };
}

/** What start-up needs of a device in a chunk to rebuild its live state. */
export interface DeviceSummary {
  imei: string;
  /** The point with the latest fix time (the later one on equal times), if any. */
  newest: StoredPosition | null;
  /** The latest fix time with a speed of at least the moving threshold. */
  movingAt: number | null;
  readings?: Readings;
}

/**
 * Per device of a chunk, its newest point, when it last moved and its readings, read from the
 * columns without building every point: a crash at full load leaves millions of journaled
 * points, and start-up replays only what the live states need.
 */
export function summarizeJournal(chunk: JournalChunk, movingKmh: number): DeviceSummary[] {
  const b = chunk.block;
  const out: DeviceSummary[] = [];
  let i = 0;
  chunk.imeis.forEach((imei, d) => {
    let best = -1, movingAt: number | null = null;
    for (const end = i + chunk.counts[d]; i < end; i++) {
      if (best < 0 || b.time[i] >= b.time[best]) best = i;
      if (b.speed[i] >= movingKmh && (movingAt === null || b.time[i] > movingAt)) {
        movingAt = b.time[i];
      }
    }
    out.push({ imei, newest: best < 0 ? null : unpackPoint(b, best), movingAt });
  });
  const c = chunk.readings;
  for (let k = 0; c && k < c.device.length; k++) out[c.device[k]].readings = readingAt(c, k);
  return out;
}

/** The points of one device in a chunk (decodes only that device's rows). */
export function devicePoints(chunk: JournalChunk, imei: string): StoredPosition[] {
  const points: StoredPosition[] = [];
  let i = 0;
  for (let d = 0; d < chunk.imeis.length; d++) {
    if (chunk.imeis[d] === imei) {
      for (let k = 0; k < chunk.counts[d]; k++) points.push(unpackPoint(chunk.block, i + k));
    }
    i += chunk.counts[d];
  }
  return points;
}
