/**
 * Splits an H02 TCP stream into frames. One connection may mix:
 *   - text frames `*...#` (often followed by CR LF, which is dropped);
 *   - binary frames starting with `$`, whose length is fixed per device model (32 bytes
 *     short form, 45 long form; 42, 46 and 48 seen in captures) but not signalled;
 *   - binary frames starting with `X`, always 32 bytes.
 *
 * Binary length: a candidate length is confirmed when the byte right after it starts the
 * next frame; the confirmed length is remembered for the connection. Without look-ahead, a
 * buffer holding exactly one candidate length is taken as one frame (devices write one
 * report per TCP segment), otherwise the remembered length is used.
 *
 * Bytes that cannot start a frame are skipped (resynchronisation). A text frame without
 * `#` within MAX_TEXT_FRAME bytes throws FrameError so the gateway drops the connection.
 */

import { concatBytes } from "../../../../lib/bytes.ts";
import { FrameError, type FrameSplitter } from "../types.ts";

const TEXT_START = 0x2a; // '*'
const TEXT_END = 0x23; // '#'
const BINARY_START = 0x24; // '$'
const ALT_BINARY_START = 0x58; // 'X'

export const MAX_TEXT_FRAME = 1024;
const ALT_BINARY_LENGTH = 32;
const SHORT_BINARY_LENGTH = 32;
/** Preference order for look-ahead: the two documented forms first. */
const BINARY_LENGTHS = [32, 45, 42, 46, 48];
const MAX_BINARY_LENGTH = Math.max(...BINARY_LENGTHS);
const EMPTY = new Uint8Array(0);

function isFrameStart(byte: number | undefined): boolean {
  return byte === TEXT_START || byte === BINARY_START || byte === ALT_BINARY_START;
}

export class H02Splitter implements FrameSplitter {
  #buffer: Uint8Array = EMPTY;
  #binaryLength: number | undefined;

  push(chunk: Uint8Array): Uint8Array[] {
    this.#append(chunk);
    const frames: Uint8Array[] = [];
    for (;;) {
      this.#skipToFrameStart();
      if (this.#buffer.length === 0) break;
      const length = this.#frameLength();
      if (length === 0) break; // incomplete: wait for more bytes
      frames.push(this.#buffer.slice(0, length));
      this.#buffer = this.#buffer.subarray(length);
    }
    // The chunk may be the reader's reused buffer: keep a copy of the remainder only.
    this.#buffer = this.#buffer.length ? this.#buffer.slice() : EMPTY;
    return frames;
  }

  #append(chunk: Uint8Array): void {
    this.#buffer = this.#buffer.length ? concatBytes([this.#buffer, chunk]) : chunk;
  }

  #skipToFrameStart(): void {
    const start = this.#buffer.findIndex((byte) => isFrameStart(byte));
    this.#buffer = start < 0 ? new Uint8Array(0) : this.#buffer.subarray(start);
  }

  /** Length of the frame at the buffer start, or 0 when more bytes are needed. */
  #frameLength(): number {
    switch (this.#buffer[0]) {
      case TEXT_START:
        return this.#textLength();
      case ALT_BINARY_START:
        return this.#buffer.length >= ALT_BINARY_LENGTH ? ALT_BINARY_LENGTH : 0;
      default:
        return this.#binaryFrameLength();
    }
  }

  #textLength(): number {
    const end = this.#buffer.subarray(0, MAX_TEXT_FRAME).indexOf(TEXT_END);
    if (end >= 0) return end + 1;
    if (this.#buffer.length >= MAX_TEXT_FRAME) {
      throw new FrameError(`H02 text frame exceeds ${MAX_TEXT_FRAME} bytes without '#'`);
    }
    return 0;
  }

  #binaryFrameLength(): number {
    const available = this.#buffer.length;
    const learned = this.#binaryLength;
    const candidates = learned === undefined
      ? BINARY_LENGTHS
      : [learned, ...BINARY_LENGTHS.filter((length) => length !== learned)];
    for (const length of candidates) {
      if (available > length && isFrameStart(this.#buffer[length])) {
        this.#binaryLength = length;
        return length;
      }
    }
    if (BINARY_LENGTHS.includes(available) && (learned === undefined || available >= learned)) {
      return available;
    }
    if (learned !== undefined && available >= learned) return learned;
    if (available > MAX_BINARY_LENGTH) return learned ?? SHORT_BINARY_LENGTH;
    return 0;
  }
}
