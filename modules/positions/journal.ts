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
 * One journal chunk: the positions of many devices written by one gateway commit, packed
 * like a block. Writing a commit's positions as one or two values (instead of a key per
 * position) is what lets the disk-backed KV take tens of thousands of positions a second:
 * SQLite then writes a few adjacent B-tree pages per commit rather than one leaf per device.
 */
export interface JournalChunk {
  /** Commit time (epoch ms): the devices' last-message time when the journal is replayed. */
  at: number;
  /** Devices in the chunk, each with `counts[i]` consecutive points of `block`. */
  imeis: string[];
  counts: Uint32Array;
  block: PositionBlock;
}

export interface DevicePoints {
  imei: string;
  points: StoredPosition[];
}

/** Packs devices' points into chunks that each stay under the KV value limit. */
export function packJournal(entries: DevicePoints[], at: number): JournalChunk[] {
  const chunks: JournalChunk[] = [];
  let imeis: string[] = [], counts: number[] = [], points: StoredPosition[] = [];
  let attrs: string[] = [];
  let bytes = 0;
  const flush = () => {
    if (!points.length) return;
    chunks.push({ at, imeis, counts: Uint32Array.from(counts), block: packBlock(points, attrs) });
    imeis = [], counts = [], points = [], attrs = [], bytes = 0;
  };
  for (const e of entries) {
    for (const p of e.points) {
      const attr = attributesJson(p);
      const size = FIXED_BYTES_PER_POINT + attr.length + 4;
      if (points.length && bytes + size + e.imei.length + 8 > MAX_BLOCK_BYTES) flush();
      if (imeis.at(-1) !== e.imei || counts.length === 0) {
        imeis.push(e.imei);
        counts.push(0);
        bytes += e.imei.length + 8;
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

/** The points of each device in a chunk, in the order they were written. */
export function unpackJournal(chunk: JournalChunk): DevicePoints[] {
  const out: DevicePoints[] = [];
  let i = 0;
  chunk.imeis.forEach((imei, d) => {
    const points: StoredPosition[] = [];
    for (const end = i + chunk.counts[d]; i < end; i++) points.push(unpackPoint(chunk.block, i));
    out.push({ imei, points });
  });
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
