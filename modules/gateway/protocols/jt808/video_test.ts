/**
 * JT/T 1078 signalling and the T/JSATL12 attachment link: byte-exact requests, decoded
 * answers (0x1205, 0x0800/0x0801, active-safety items), the attachment stream splitter under
 * hostile input.
 */
import assert from "node:assert/strict";
import { FrameError, newSession } from "../types.ts";
import { ByteReader } from "./bytes.ts";
import { xorChecksum } from "./checksum.ts";
import { decodeFrame } from "./decoder.ts";
import { readHeader } from "./header.ts";
import { jt808 } from "./index.ts";
import { Jt808Splitter } from "./splitter.ts";
import { frame, hex, toHexString } from "./test_frames.ts";
import {
  AttachmentSplitter,
  dataPacket,
  decodeAttachmentFrame,
  uploadAnswer,
} from "./attachments.ts";
import { encodeMessage } from "./encoder.ts";

function parse(wire: Uint8Array) {
  const frames = new Jt808Splitter().push(wire);
  assert.equal(frames.length, 1);
  const content = frames[0].subarray(1, frames[0].length - 1);
  assert.equal(xorChecksum(content, 0, content.length - 1), content[content.length - 1]);
  const r = new ByteReader(content, 0, content.length - 1);
  const header = readHeader(r);
  return { header, body: toHexString(r.rest()) };
}

/** A session that has seen a heartbeat of terminal 013912345678 (2013, GMT+8). */
function session() {
  const s = newSession();
  decodeFrame(frame({ msgId: 0x0002 }), s);
  return s;
}

const send = (request: Parameters<typeof videoCommand>[0], ref = 0x10042) =>
  parse(jt808.encodeCommand(videoCommand(request, ref), session()));

function videoCommand(
  request: import("../types.ts").VideoRequest,
  ref: number,
): import("../types.ts").OutgoingCommand {
  return { content: "", ref, native: { kind: "jt808Video", request } };
}

Deno.test("0x9101 real-time request: host, TCP port, UDP 0, channel, AV, stream; serial = ref", () => {
  const { header, body } = send({
    type: "live",
    host: "10.0.0.5",
    port: 1078,
    channel: 2,
    stream: "sub",
  });
  assert.equal(header.msgId, 0x9101);
  assert.equal(header.serial, 0x0042);
  // 8 "10.0.0.5" | 0436 | 0000 | 02 | 00 AV | 01 sub
  assert.equal(
    body,
    "08" + toHexString(new TextEncoder().encode("10.0.0.5")) + "0436000002" + "0001",
  );
});

Deno.test("0x9102 close, 0x9205 query and 0x9201 playback carry device-local BCD times", () => {
  assert.equal(send({ type: "liveClose", channel: 3 }).body, "03000000");
  const start = Date.UTC(2026, 10, 26, 0, 0, 0); // 08:00 in GMT+8
  const end = Date.UTC(2026, 10, 26, 1, 30, 5);
  const q = send({ type: "queryResources", channel: 1, start, end });
  assert.equal(q.header.msgId, 0x9205);
  assert.equal(q.body, "01" + "261126080000" + "261126093005" + "0000000000000000" + "000000");
  const p = send({ type: "playback", host: "h", port: 7000, channel: 1, start, end });
  assert.equal(p.header.msgId, 0x9201);
  assert.equal(
    p.body,
    "01" + "68" + "1b58" + "0000" + "01" + "0000000000" + "261126080000" + "261126093005",
  );
  const c = send({ type: "playbackControl", channel: 1, control: 5, speed: 0, seekTo: start });
  assert.equal(c.body, "010500" + "261126080000");
});

Deno.test("0x9208 attachment request: server, ports, 16-byte label, 32-byte alarm number", () => {
  const label = "303037343234322603271552450b0500";
  const { header, body } = send({
    type: "attachmentUpload",
    host: "127.0.0.1",
    port: 1079,
    label,
    alarmNo: "a".repeat(32),
  });
  assert.equal(header.msgId, 0x9208);
  const host = toHexString(new TextEncoder().encode("127.0.0.1"));
  assert.equal(body, "09" + host + "0437" + "0000" + label + "61".repeat(32) + "00".repeat(16));
});

Deno.test("0x1205 resource list: files with channel, times, 64-bit alarm flags, types, size", () => {
  const entry = "02" + "261125100000" + "261125100100" + "0000000100000002" + "00" + "01" + "01" +
    "00124f80";
  const bad = "02" + "991399000000" + "261125100100" + "0000000000000000" + "000101" + "00000001";
  const { messages, replies } = decodeFrame(
    frame({ msgId: 0x1205, body: "0007" + "00000002" + entry + bad }),
    session(),
  );
  assert.equal(replies.length, 1, "0x8001");
  const video = messages.find((m) => m.type === "video");
  assert.ok(video?.type === "video" && video.event.kind === "resources");
  assert.equal(video.event.serial, 7);
  assert.deepEqual(video.event.files, [{
    channel: 2,
    start: Date.UTC(2026, 10, 25, 2, 0, 0),
    end: Date.UTC(2026, 10, 25, 2, 1, 0),
    alarmFlags: String((1n << 32n) | 2n),
    avType: 0,
    streamType: 1,
    storageType: 1,
    size: 0x124f80,
  }]);
});

Deno.test("0x1205 with a huge count and a truncated list never throws", () => {
  const { messages } = decodeFrame(
    frame({ msgId: 0x1205, body: "0001" + "ffffffff" + "02261125" }),
    session(),
  );
  const video = messages.find((m) => m.type === "video");
  assert.ok(video?.type === "video" && video.event.kind === "resources");
  assert.deepEqual(video.event.files, []);
});

/** 0x0200 with an ADAS 0x64 item (forward collision, 1 attachment). */
function adasReport(): Uint8Array {
  const location = "00000000" + "00000003" + "0157c0e8" + "06cc4b48" + "000a" + "01f4" + "005a" +
    "261126120000";
  const label = "30313233343536" + "261126120000" + "01" + "01" + "00";
  const item = "00000001" + "01" + "01" + "01" + "28" + "0c" + "00" + "00" + "00" + "32" + "000a" +
    "00000000" + "00000000" + "261126120000" + "0000" + label;
  return frame({ msgId: 0x0200, body: location + "64" + (item.length / 2).toString(16) + item });
}

Deno.test("an ADAS item makes the report an alarm and tells the video module its label", () => {
  const { messages } = decodeFrame(adasReport(), session());
  const position = messages.find((m) => m.type === "position");
  assert.ok(position?.type === "position");
  assert.equal(position.position.alarm, "general");
  assert.equal(position.position.attributes.adasAlarm, 1);
  const video = messages.find((m) => m.type === "video");
  assert.ok(video?.type === "video" && video.event.kind === "safetyAlarm");
  assert.deepEqual(video.event, {
    kind: "safetyAlarm",
    family: "adas",
    alarmType: 1,
    label: "30313233343536261126120000010100",
    files: 1,
    time: Date.UTC(2026, 10, 26, 4, 0, 0),
  });
});

Deno.test("0x0801 picture in one frame: the data, answered with 0x8800", () => {
  const body = "0000002a" + "00" + "00" + "01" + "02" + "00".repeat(28) + "ffd8ffe0aabb";
  const { messages, replies } = decodeFrame(frame({ msgId: 0x0801, body }), session());
  const video = messages.find((m) => m.type === "video");
  assert.ok(video?.type === "video" && video.event.kind === "mediaData");
  assert.equal(video.event.mediaId, 42);
  assert.equal(video.event.channel, 2);
  assert.equal(toHexString(video.event.data), "ffd8ffe0aabb");
  assert.equal(parse(replies[0]).header.msgId, 0x8800);
  assert.equal(parse(replies[0]).body, "0000002a00");
});

const TO = { version: null, terminal: hex("013912345678") };

Deno.test("attachment link: frames and data packets split across reads, garbage skipped", () => {
  const info = encodeMessage(TO, 0x1211, 3, hex("05" + "612e6a7067" + "00" + "00000004"));
  const data = dataPacket("a.jpg", 0, hex("ffd8ffd9"));
  const stream = Uint8Array.from([0x00, 0x13, ...info, 0x55, ...data, ...info]);
  const splitter = new AttachmentSplitter();
  const items = [];
  for (let i = 0; i < stream.length; i += 7) {
    items.push(...splitter.push(stream.subarray(i, i + 7)));
  }
  assert.deepEqual(items.map((i) => i.kind), ["frame", "data", "frame"]);
  const d = items[1];
  assert.ok(d.kind === "data");
  assert.equal(d.name, "a.jpg");
  assert.equal(toHexString(d.data), "ffd8ffd9");
  const f = items[0].kind === "frame" ? decodeAttachmentFrame(items[0].frame) : null;
  assert.deepEqual(f?.message, { kind: "fileInfo", name: "a.jpg", type: 0, size: 4 });
});

Deno.test("attachment link: an oversized data packet or endless frame is a FrameError", () => {
  const header = dataPacket("x", 0, new Uint8Array(0));
  header.set([0x7f, 0xff, 0xff, 0xff], header.length - 4); // length 2 GiB
  assert.throws(() => new AttachmentSplitter().push(header), FrameError);
  const endless = new Uint8Array(20_000).fill(0x41);
  endless[0] = 0x7e;
  assert.throws(() => new AttachmentSplitter().push(endless), FrameError);
  // Random bytes: no throw beyond FrameError, no crash.
  for (let n = 0; n < 200; n++) {
    const junk = crypto.getRandomValues(new Uint8Array(300));
    try {
      const items = new AttachmentSplitter().push(junk);
      for (const i of items) if (i.kind === "frame") decodeAttachmentFrame(i.frame);
    } catch (e) {
      assert.ok(e instanceof FrameError, String(e));
    }
  }
});

Deno.test("0x1210 decodes the alarm and its files; 0x9212 lists the missing pieces", () => {
  const body = "30313233343536" + "ab".repeat(16) + "61".repeat(32) + "00" + "01" + "05" +
    "612e6a7067" + "00001000";
  const f = decodeAttachmentFrame(encodeMessage(TO, 0x1210, 9, hex(body)));
  assert.deepEqual(f?.message, {
    kind: "alarmInfo",
    terminal: "0123456",
    label: "ab".repeat(16),
    alarmNo: "a".repeat(32),
    files: [{ name: "a.jpg", size: 4096 }],
  });
  const answer = parse(uploadAnswer(TO, 5, { name: "a.jpg", type: 0 }, [[1024, 512]]));
  assert.equal(answer.header.msgId, 0x9212);
  assert.equal(answer.body, "05612e6a7067" + "00" + "01" + "01" + "00000400" + "00000200");
});

Deno.test("0x0801 in three subpackages: each part acknowledged, the whole picture decoded once", () => {
  const s = session();
  const picture = "ffd8" + "ab".repeat(1500) + "ffd9";
  const body = "00000007" + "00" + "00" + "03" + "01" + "00".repeat(28) + picture;
  const parts = [body.slice(0, 1800), body.slice(1800, 3600), body.slice(3600)];
  const results = parts.map((p, i) => {
    const f = frame({ msgId: 0x0801, body: "0003" + `000${i + 1}` + p });
    f[3] |= 0x20; // subpackage flag
    return decodeFrame(f, s);
  });
  for (const r of results.slice(0, 2)) {
    assert.deepEqual(r.messages.filter((m) => m.type === "video"), []);
    assert.equal(parse(r.replies[0]).header.msgId, 0x8001);
    assert.match(parse(r.replies[0]).body, /0801 ?00$/);
  }
  const video = results[2].messages.find((m) => m.type === "video");
  assert.ok(video?.type === "video" && video.event.kind === "mediaData");
  assert.equal(video.event.mediaId, 7);
  assert.equal(toHexString(video.event.data), picture);
  assert.equal(parse(results[2].replies[0]).header.msgId, 0x8800);
});

Deno.test("subpackaged 0x0801 out of range or other ids are not reassembled", () => {
  const s = session();
  const f = frame({ msgId: 0x0801, body: "0002" + "0005" + "00" });
  f[3] |= 0x20;
  assert.deepEqual(decodeFrame(f, s).messages.filter((m) => m.type === "video"), []);
  const g = frame({ msgId: 0x0200, body: "0002" + "0001" + "00" });
  g[3] |= 0x20;
  assert.match(parse(decodeFrame(g, s).replies[0]).body, /020003$/, "not supported");
});
