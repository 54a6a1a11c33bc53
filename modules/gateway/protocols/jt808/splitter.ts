/**
 * Cuts a TCP byte stream into JT/T 808 frames.
 *
 * Binary frames are 0x7E … 0x7E with escaped content; they are returned *unescaped, flags
 * included*, which is what {@link decodeFrame} expects. Some devices (JT701 locks) send ASCII
 * result sentences "(…)" on the same port; those are returned verbatim.
 *
 * Bytes outside a frame are dropped (resync). A frame that grows past the cap without its closing
 * flag makes `push` throw {@link FrameError}, so a hostile stream cannot grow memory.
 */
import { FrameError, type FrameSplitter } from "../types.ts";
import { FLAG, unescape } from "./escape.ts";

/** Largest escaped frame we wait for: the 10-bit body length (1023) + 2019 header, all escaped, fits. */
export const MAX_FRAME_BYTES = 4096;
/** ASCII result sentences are short; anything longer is not one. */
export const MAX_SENTENCE_BYTES = 1024;

const OPEN = 0x28; // "("
const CLOSE = 0x29; // ")"

export class Jt808Splitter implements FrameSplitter {
  #pending = new Uint8Array(0);

  push(chunk: Uint8Array): Uint8Array[] {
    const buf = concat(this.#pending, chunk);
    const frames: Uint8Array[] = [];
    let pos = 0;
    while (pos < buf.length) {
      const start = findStart(buf, pos);
      if (start < 0) {
        pos = buf.length; // only garbage left
        break;
      }
      pos = start;
      const kind = buf[start];
      const end = kind === FLAG ? buf.indexOf(FLAG, start + 1) : findClose(buf, start + 1);
      if (end < 0) {
        const cap = kind === FLAG ? MAX_FRAME_BYTES : MAX_SENTENCE_BYTES;
        if (buf.length - start > cap) throw new FrameError(`JT/T 808 frame exceeds ${cap} bytes`);
        break; // wait for more bytes
      }
      if (kind === FLAG) {
        if (end === start + 1) {
          // "7E 7E": the first flag closed a frame we joined mid-way; the second opens the next.
          pos = end;
          continue;
        }
        frames.push(flagged(unescape(buf.subarray(start + 1, end))));
        pos = end + 1;
      } else if (buf[end] === FLAG) {
        pos = end; // a "(" that never closed before a binary frame: it was noise
      } else {
        frames.push(buf.slice(start, end + 1));
        pos = end + 1;
      }
    }
    this.#pending = buf.slice(pos);
    return frames;
  }
}

function findStart(buf: Uint8Array, from: number): number {
  for (let i = from; i < buf.length; i++) {
    if (buf[i] === FLAG || buf[i] === OPEN) return i;
  }
  return -1;
}

/** Index of ")" or of a 0x7E met first (which aborts the sentence), or -1. */
function findClose(buf: Uint8Array, from: number): number {
  for (let i = from; i < buf.length; i++) {
    if (buf[i] === CLOSE || buf[i] === FLAG) return i;
  }
  return -1;
}

function flagged(content: Uint8Array): Uint8Array {
  const out = new Uint8Array(content.length + 2);
  out[0] = FLAG;
  out.set(content, 1);
  out[out.length - 1] = FLAG;
  return out;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
