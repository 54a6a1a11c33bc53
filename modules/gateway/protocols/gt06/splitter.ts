/**
 * Stream → frames. A frame starts with 0x7878/0x7979 and ends with 0x0D0A.
 *
 * The length field is tried first; when the declared end is missing or not followed by
 * 0x0D0A (devices send wrong lengths, e.g. legacy WIFI frames carry the access-point count
 * there) the frame ends at the first 0x0D0A instead. Bytes before a start marker are
 * skipped (resync), and a frame that would exceed MAX_FRAME_BYTES throws FrameError so a
 * hostile stream cannot grow the buffer without bound.
 */

import { concatBytes } from "../../../../lib/bytes.ts";
import { FrameError, type FrameSplitter } from "../types.ts";
import { LONG_START, SHORT_START } from "./frame.ts";

export const MAX_FRAME_BYTES = 2048;
const EMPTY = new Uint8Array(0);

export class Gt06Splitter implements FrameSplitter {
  private buffer: Uint8Array = EMPTY;

  push(chunk: Uint8Array): Uint8Array[] {
    // Frames and the remainder are copied out below, so the chunk itself is never kept.
    this.buffer = this.buffer.length ? concatBytes([this.buffer, chunk]) : chunk;
    const frames: Uint8Array[] = [];
    let pos = 0;
    for (;;) {
      let start = findStart(this.buffer, pos);
      // "78 78 78 …": a stray marker byte before a real frame; prefer the frame whose
      // length field is confirmed by the stop marker.
      while (
        start >= 0 && this.buffer[start + 2] === this.buffer[start] &&
        confirmedAt(this.buffer, start + 1)
      ) {
        start++;
      }
      if (start < 0) {
        pos = keepPossibleMarker(this.buffer);
        break;
      }
      const end = frameEnd(this.buffer, start);
      if (end < 0) {
        pos = start;
        break;
      }
      frames.push(this.buffer.slice(start, end));
      pos = end;
    }
    this.buffer = pos < this.buffer.length ? this.buffer.slice(pos) : EMPTY;
    return frames;
  }
}

function findStart(buf: Uint8Array, from: number): number {
  for (let i = from; i + 1 < buf.length; i++) {
    if ((buf[i] === SHORT_START || buf[i] === LONG_START) && buf[i + 1] === buf[i]) return i;
  }
  return -1;
}

/** Keeps a trailing lone 0x78/0x79: it may be the first half of the next start marker. */
function keepPossibleMarker(buf: Uint8Array): number {
  const last = buf[buf.length - 1];
  return last === SHORT_START || last === LONG_START ? buf.length - 1 : buf.length;
}

function declaredEnd(buf: Uint8Array, start: number): number {
  const extended = buf[start] === LONG_START;
  const header = extended ? 4 : 3;
  if (buf.length - start < header) return -1;
  const length = extended ? (buf[start + 2] << 8) | buf[start + 3] : buf[start + 2];
  return start + header + length + 2;
}

/** The frame at `start` is complete and its length field lands on the stop marker. */
function confirmedAt(buf: Uint8Array, start: number): boolean {
  const end = declaredEnd(buf, start);
  return end > 0 && end - start <= MAX_FRAME_BYTES && end <= buf.length &&
    buf[end - 2] === 0x0d && buf[end - 1] === 0x0a;
}

/** Exclusive end of the frame starting at `start`, or -1 when more bytes are needed. */
function frameEnd(buf: Uint8Array, start: number): number {
  const header = buf[start] === LONG_START ? 4 : 3;
  if (buf.length - start < header) return -1;
  if (confirmedAt(buf, start)) return declaredEnd(buf, start);
  // The declared end is not there (yet), or the length field is wrong: the frame ends at a
  // stop marker that ends the bytes received so far or is followed by the next frame's start.
  // Devices with a too-large length field (seen on logins) would otherwise stall until their
  // next packet; requiring one of those two places keeps a frame split across reads whose
  // data happens to contain 0D0A from being cut there.
  const limit = Math.min(buf.length, start + MAX_FRAME_BYTES);
  for (let i = start + header + 1; i + 1 < limit; i++) {
    if (buf[i] === 0x0d && buf[i + 1] === 0x0a && endsPlausibly(buf, i + 2)) return i + 2;
  }
  if (buf.length - start >= MAX_FRAME_BYTES) {
    throw new FrameError(`GT06 frame exceeds ${MAX_FRAME_BYTES} bytes without a stop marker`);
  }
  return -1;
}

/** A frame may end at `end`: the received bytes end there or the next frame starts there. */
function endsPlausibly(buf: Uint8Array, end: number): boolean {
  if (end === buf.length) return true;
  if (end + 1 >= buf.length) return buf[end] === SHORT_START || buf[end] === LONG_START;
  return (buf[end] === SHORT_START || buf[end] === LONG_START) && buf[end + 1] === buf[end];
}
