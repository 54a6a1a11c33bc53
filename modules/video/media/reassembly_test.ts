import assert from "node:assert/strict";
import { encodeBcd } from "../../gateway/protocols/jt808/bcd.ts";
import {
  DataType,
  encodePacket,
  MAX_BODY,
  type Packet,
  PacketSplitter,
  parsePacket,
  SubFlag,
} from "./jt1078.ts";
import { FrameAssembler, type MediaFrame } from "./reassembly.ts";

const SIM = "013912345678";

function pkt(
  over: Partial<Omit<Packet, "sim">> & { sim?: string; body: Uint8Array },
): Uint8Array {
  return encodePacket({
    marker: false,
    payloadType: 98,
    sequence: 0,
    channel: 1,
    dataType: DataType.P,
    subFlag: SubFlag.Atomic,
    timestamp: 1000,
    lastIFrameInterval: 0,
    lastFrameInterval: 40,
    ...over,
    simBcd: encodeBcd(over.sim ?? SIM, 6),
  });
}

const bytes = (n: number, fill: number) => new Uint8Array(n).fill(fill);

/** A frame of `parts` sub-packages on `channel` with sequences from `seq`. */
function framePackets(
  channel: number,
  seq: number,
  parts: Uint8Array[],
  dataType: number = DataType.I,
) {
  return parts.map((body, i) =>
    pkt({
      channel,
      sequence: seq + i,
      dataType,
      body,
      subFlag: parts.length === 1
        ? SubFlag.Atomic
        : i === 0
        ? SubFlag.First
        : i === parts.length - 1
        ? SubFlag.Last
        : SubFlag.Middle,
    })
  );
}

function run(
  chunks: Uint8Array[],
): { frames: MediaFrame[]; splitter: PacketSplitter; asm: FrameAssembler } {
  const splitter = new PacketSplitter();
  const asm = new FrameAssembler();
  const frames: MediaFrame[] = [];
  for (const c of chunks) {
    for (const p of splitter.push(c)) {
      const f = asm.push(p);
      if (f) frames.push(f);
    }
  }
  return { frames, splitter, asm };
}

Deno.test("a packet's fields: header, SIM as the gateway's terminal id, channel, type, timestamp", () => {
  const raw = pkt({
    sequence: 513,
    channel: 3,
    dataType: DataType.I,
    subFlag: SubFlag.First,
    timestamp: 1_700_000_000_123,
    lastIFrameInterval: 1000,
    lastFrameInterval: 66,
    marker: true,
    body: bytes(10, 7),
  });
  assert.deepEqual([...raw.subarray(0, 4)], [0x30, 0x31, 0x63, 0x64]);
  const r = parsePacket(raw, 0, raw.length);
  assert.ok(typeof r === "object");
  const p = r.packet;
  assert.equal(r.length, 30 + 10);
  assert.equal(p.sim, SIM);
  assert.equal(p.sequence, 513);
  assert.equal(p.channel, 3);
  assert.equal(p.dataType, DataType.I);
  assert.equal(p.subFlag, SubFlag.First);
  assert.equal(p.timestamp, 1_700_000_000_123);
  assert.equal(p.lastIFrameInterval, 1000);
  assert.equal(p.lastFrameInterval, 66);
  assert.equal(p.marker, true);
  assert.equal(p.payloadType, 98);
});

Deno.test("audio has a timestamp but no frame intervals; passthrough has neither", () => {
  const audio = pkt({ dataType: DataType.Audio, payloadType: 6, timestamp: 5, body: bytes(4, 1) });
  assert.equal(audio.length, 26 + 4);
  const a = parsePacket(audio, 0, audio.length);
  assert.ok(typeof a === "object" && a.packet.timestamp === 5 && a.packet.body.length === 4);
  const pass = pkt({ dataType: DataType.Passthrough, body: bytes(3, 2) });
  assert.equal(pass.length, 18 + 3);
  const t = parsePacket(pass, 0, pass.length);
  assert.ok(typeof t === "object" && t.packet.timestamp === 0 && t.packet.body.length === 3);
});

Deno.test("sub-packaged frames of interleaved channels (and audio between them) are reassembled", () => {
  const a = [bytes(950, 1), bytes(950, 2), bytes(100, 3)];
  const b = [bytes(950, 4), bytes(950, 5), bytes(950, 6), bytes(20, 7)];
  const pa = framePackets(1, 10, a);
  const pb = framePackets(2, 70, b, DataType.P);
  const audio = pkt({
    channel: 1,
    sequence: 12,
    dataType: DataType.Audio,
    payloadType: 6,
    body: bytes(8, 9),
  });
  // ch1 first, ch2 first, ch1 middle, ch2 middle, ch2 middle, ch1 audio, ch1 last(seq 13), ch2 last
  const pa2 = framePackets(1, 10, a).map((
    x,
    i,
  ) => (i === 2
    ? pkt({ channel: 1, sequence: 13, dataType: DataType.I, subFlag: SubFlag.Last, body: a[2] })
    : x)
  );
  const order = [pa2[0], pb[0], pa2[1], pb[1], pb[2], audio, pa2[2], pb[3]];
  assert.equal(pa.length, 3);
  // Delivered in odd TCP chunks: 7 bytes at a time.
  const all = new Uint8Array(order.flatMap((x) => [...x]));
  const chunks: Uint8Array[] = [];
  for (let i = 0; i < all.length; i += 7) chunks.push(all.subarray(i, i + 7));
  const { frames, asm } = run(chunks);
  assert.equal(asm.dropped, 0);
  assert.deepEqual(frames.map((f) => [f.channel, f.kind, f.data.length]), [
    [1, "audio", 8],
    [1, "video", 2000],
    [2, "video", 2870],
  ]);
  assert.equal(frames[1].data[0], 1);
  assert.equal(frames[1].data[950], 2);
  assert.equal(frames[1].data[1999], 3);
  assert.equal(frames[2].data[2869], 7);
  assert.equal(frames[2].dataType, DataType.P);
});

Deno.test("a lost middle packet drops that frame; the next first/atomic frame is whole", () => {
  const f1 = framePackets(1, 0, [bytes(950, 1), bytes(950, 2), bytes(950, 3), bytes(5, 4)]);
  const f2 = framePackets(1, 4, [bytes(950, 5), bytes(10, 6)]);
  const f3 = framePackets(1, 6, [bytes(30, 8)]);
  const { frames, asm } = run([f1[0], f1[1], /* f1[2] lost */ f1[3], ...f2, ...f3]);
  assert.equal(asm.dropped, 1);
  assert.deepEqual(frames.map((f) => f.data.length), [960, 30]);
});

Deno.test("a last without its first, and a first cut off by another first, are dropped", () => {
  const f1 = framePackets(1, 0, [bytes(950, 1), bytes(10, 2)]);
  const f2 = framePackets(1, 2, [bytes(950, 3), bytes(950, 4), bytes(10, 5)]);
  const { frames } = run([f1[1], f2[0], ...f2]);
  assert.deepEqual(frames.map((f) => f.data.length), [1910]);
});

Deno.test("garbage between packets is skipped up to the next header; oversized bodies are refused", () => {
  const good1 = framePackets(1, 0, [bytes(950, 1), bytes(50, 2)]);
  const good2 = framePackets(1, 2, [bytes(40, 3)]);
  const oversized = pkt({ channel: 1, sequence: 9, body: bytes(10, 1) });
  // Claim a 2000-byte body (> 950): the header is not a packet.
  oversized[28] = 0x07;
  oversized[29] = 0xd0;
  const garbage = new Uint8Array([0x30, 0x31, 0x00, 0x30, 0x31, 0x63, 0xff, ...bytes(500, 0xaa)]);
  const { frames, splitter } = run([
    good1[0],
    good1[1],
    garbage,
    oversized,
    bytes(3000, 0x30),
    ...good2,
  ]);
  assert.deepEqual(frames.map((f) => f.data.length), [1000, 40]);
  assert.ok(splitter.skipped >= garbage.length + 3000);
});

Deno.test("the splitter holds at most one partial packet whatever it is fed", () => {
  const splitter = new PacketSplitter();
  for (let i = 0; i < 2000; i++) splitter.push(crypto.getRandomValues(new Uint8Array(997)));
  const big = pkt({ body: bytes(MAX_BODY, 1) });
  const out = splitter.push(big.subarray(0, 500));
  const rest = splitter.push(big.subarray(500));
  assert.equal(out.length + rest.length >= 1, true);
});

Deno.test("frames over the size bound are dropped", () => {
  const parts = Array.from({ length: 2300 }, (_, i) => bytes(950, i & 0xff));
  const { frames, asm } = run(framePackets(1, 0, parts));
  assert.equal(frames.length, 0);
  assert.equal(asm.dropped, 1);
});

Deno.test("2019 terminals' BCD[10] SIM is detected per connection; the id is the 12 digits the 808 link matches", () => {
  const imei = "860123456789012";
  const sim10 = encodeBcd(imei, 10);
  const p10 = (over: Partial<Omit<Packet, "sim">> & { body: Uint8Array }) =>
    encodePacket({
      marker: false,
      payloadType: 98,
      sequence: 0,
      channel: 2,
      dataType: DataType.I,
      subFlag: SubFlag.Atomic,
      timestamp: 40,
      lastIFrameInterval: 0,
      lastFrameInterval: 40,
      ...over,
      simBcd: sim10,
    });
  const packets = [
    p10({ sequence: 0, subFlag: SubFlag.First, body: bytes(950, 1) }),
    p10({ sequence: 1, subFlag: SubFlag.Last, body: bytes(50, 2) }),
    p10({ sequence: 2, dataType: DataType.Audio, payloadType: 6, body: bytes(324, 3) }),
    p10({ sequence: 3, dataType: DataType.P, body: bytes(70, 4) }),
  ];
  assert.equal(packets[0].length, 34 + 950);
  const all = new Uint8Array(packets.flatMap((x) => [...x]));
  const chunks: Uint8Array[] = [];
  for (let i = 0; i < all.length; i += 11) chunks.push(all.subarray(i, i + 11));
  const { frames, splitter } = run(chunks);
  assert.equal(splitter.simLength, 10);
  assert.equal(splitter.skipped, 0);
  assert.deepEqual(frames.map((f) => [f.kind, f.channel, f.data.length]), [
    ["video", 2, 1000],
    ["audio", 2, 324],
    ["video", 2, 70],
  ]);
  assert.equal(frames[0].sim, imei.slice(-12));
  // A 2016 stream is read as BCD[6].
  const six = run([
    new Uint8Array(framePackets(1, 0, [bytes(950, 1), bytes(20, 2)]).flatMap((x) => [...x])),
  ]);
  assert.equal(six.splitter.simLength, 6);
  assert.equal(six.frames[0].sim, SIM);
});
