/**
 * What other modules use of the position store, implemented by PositionStore (app/compose.ts
 * passes it): the ingest's journal inside its one group commit, the compaction job, and the
 * reports' reads of tracks.
 */
import type { StoredPosition } from "../devices/model.ts";
import type { DevicePoints, JournalChunk } from "./journal.ts";
import type { PositionBlock } from "./codec.ts";

/** Journal chunks added to a commit, to index once it succeeded. */
export interface JournalWrite {
  seqs: number[];
  chunks: JournalChunk[];
  /** Cluster mode: the instance whose journal keys these are (single mode: absent). */
  writer?: string;
}

export interface PositionJournal {
  /** Opens the ingest's group commit, which the stores fill (journal, alert records). */
  openCommit(): Deno.AtomicOperation;
  /** Adds a commit's positions to it as journal chunks. */
  addJournal(op: Deno.AtomicOperation, entries: DevicePoints[], at: number): JournalWrite;
  /** After the commit succeeded: reads find the points. */
  journaled(w: JournalWrite): void;
  /** Reads the journal back at start (each chunk to `onChunk`); how many chunks. */
  loadJournal(onChunk?: (chunk: JournalChunk) => void): Promise<number>;
}

export interface PositionCompaction {
  /** Packs journal chunks older than the cutoff into per-device blocks; how many points. */
  compactAll(cutoff?: number): Promise<number>;
  /** Deletes a device's blocks wholly older than the cutoff (retention on the KV store). */
  dropBlocksBefore(imei: string, cutoff: number): Promise<number>;
}

/** Valid fixes as columns, in time order (no point objects). */
export interface FixColumns {
  length: number;
  time: Float64Array;
  /** km/h. */
  speed: Float32Array;
  lat: Float64Array;
  lng: Float64Array;
}

/** What the reports read of tracks (track details, overspeed under a custom limit). */
export interface TrackReader {
  /** Points of one device with from ≤ time ≤ to, in time order, each fix once. */
  range(imei: string, from: number, to: number): Promise<StoredPosition[]>;
  /**
   * The times of the same points whose position type passes `accept`, ascending, without
   * building the points: a report counts and pages a week of fixes and reads only its page.
   */
  fixTimes(
    imei: string,
    from: number,
    to: number,
    accept?: (posType: number) => boolean,
  ): Promise<Float64Array>;
  /**
   * Time, speed and place of the valid fixes among the same points, as columns: overspeed
   * under a custom limit scans months of fixes, which as objects would cost ten times more.
   */
  validFixes(imei: string, from: number, to: number): Promise<FixColumns>;
}

/**
 * A JSON form of track points (comma-joined objects, no brackets): written from a stored
 * block's columns (points with from ≤ time ≤ to) or from points; `id` keys its cache.
 */
export interface BlockFormat {
  id: string;
  block(b: PositionBlock, from: number, to: number): Uint8Array;
  points(points: StoredPosition[]): Uint8Array;
}

/** Tracks as ready JSON fragments in a given form (the Open API's track.list). */
export interface TrackJsonReader {
  rangeParts(
    imei: string,
    from: number,
    to: number,
    format: BlockFormat,
  ): Promise<Iterable<Uint8Array>>;
}
