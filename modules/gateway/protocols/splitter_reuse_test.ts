/**
 * The TCP reader hands every splitter a view of one buffer it reuses for the next read, so a
 * splitter must keep copies only: a frame split across reads must come out intact even though
 * the bytes of the first read were overwritten meanwhile.
 */
import assert from "node:assert/strict";
import { gt06Login } from "../../../tests/helpers/gt06_frames.ts";
import { gt06 } from "./gt06/index.ts";
import { h02 } from "./h02/index.ts";
import { jt808 } from "./jt808/index.ts";
import { frame as jt808Frame, wire } from "./jt808/test_frames.ts";
import type { TcpProtocol } from "./types.ts";

const ascii = (s: string) => new TextEncoder().encode(s);

const SAMPLES: [TcpProtocol, Uint8Array][] = [
  [gt06, gt06Login("359710049000011", 7)],
  [jt808, wire(jt808Frame({ msgId: 0x0002, serial: 9 }))],
  [h02, ascii("*HQ,4210051415,V1,164549,A,0956.3869,N,08406.7068,W,000.00,000,221215,FFFFFBFF#")],
];

for (const [protocol, frame] of SAMPLES) {
  Deno.test(`${protocol.name} splitter keeps no reference to the reader's buffer`, () => {
    const splitter = protocol.createSplitter();
    const reader = new Uint8Array(4096);
    const frames: Uint8Array[] = [];
    // Two frames; the first split mid-way across reads, the second right after its end.
    const stream = [...frame, ...frame];
    for (
      const part of [
        stream.slice(0, 5),
        stream.slice(5, frame.length + 3),
        stream.slice(frame.length + 3),
      ]
    ) {
      reader.set(part);
      frames.push(...splitter.push(reader.subarray(0, part.length)));
      reader.fill(0xee); // the next read overwrites the buffer
    }
    assert.equal(frames.length, 2);
    const expected = protocol.createSplitter().push(frame.slice())[0];
    for (const f of frames) assert.deepEqual(f, expected);
  });
}
