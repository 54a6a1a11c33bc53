/**
 * The attachment listener on a real socket: an ADAS alarm's record is asked for its files
 * (0x9208 carries the record's alarm number); the terminal's upload with a lost piece is
 * answered with that piece (0x9212), the resent piece completes the picture, which is stored
 * under DATA_DIR and turns the record "obtained (picture)". Garbage and unknown alarms close
 * their connection only; the listener keeps serving.
 */
import assert from "node:assert/strict";
import type { OutgoingCommand, VideoRequest } from "../gateway/protocols/types.ts";
import type { LiveConnection } from "../gateway/types.ts";
import { ByteWriter } from "../gateway/protocols/jt808/bytes.ts";
import { encodeMessage } from "../gateway/protocols/jt808/encoder.ts";
import { dataPacket } from "../gateway/protocols/jt808/attachments.ts";
import { Jt808Splitter } from "../gateway/protocols/jt808/splitter.ts";
import { startAttachmentServer } from "./attachment_server.ts";
import { createMediaHub } from "./media/mod.ts";
import { VideoStore } from "./store.ts";
import { createVideo } from "./wiring.ts";
import { openTestKv } from "../../tests/helpers/test_kv.ts";

const IMEI = "865000000000017";
const TO = { version: null, terminal: Uint8Array.from([0x00, 0x00, 0x00, 0x00, 0x00, 0x17]) };
const LABEL = "30313233343536261126120000010100";
const PICTURE = crypto.getRandomValues(new Uint8Array(5000));

async function setup() {
  const kv = await openTestKv();
  const dataDir = await Deno.makeTempDir({ prefix: "tp-attach-" });
  const sent: VideoRequest[] = [];
  const conn: LiveConnection = {
    imei: IMEI,
    protocol: "jt808",
    remote: "127.0.0.1:1",
    connectedAt: 0,
    heardAt: 0,
    credentialed: true,
    send: (c: OutgoingCommand) => {
      if (c.native?.kind === "jt808Video") sent.push(c.native.request);
      return Promise.resolve();
    },
    close() {},
  };
  const video = createVideo({
    store: new VideoStore(kv),
    dataDir,
    hub: createMediaHub(),
    connections: { get: () => conn },
    alerts: {
      range: () =>
        Promise.resolve([{
          id: "alert-1",
          imei: IMEI,
          userId: "u",
          type: "general",
          time: Date.UTC(2026, 10, 26, 4),
          lat: 22.5,
          lng: 114,
          speed: 0,
          read: -1,
          processed: false,
          createdAt: 0,
        }]),
    },
    devices: { visibleDevice: (_s, imei) => Promise.resolve({ imei, deviceName: "Cam" }) },
    visibleImeis: () => Promise.resolve([IMEI]),
    device: () => ({ userId: "u", deviceName: "Cam" }),
    mediaAddress: () => ({ host: "127.0.0.1", port: 1 }),
    attachmentAddress: () => ({ host: "127.0.0.1", port: 1 }),
  });
  const server = startAttachmentServer({ hostname: "127.0.0.1", port: 0 }, video.services.events);
  return { kv, dataDir, sent, conn, video, server };
}

/** Writes, then reads the frames the server answers until `count` arrived. */
async function exchange(c: Deno.Conn, bytes: Uint8Array, count: number) {
  await c.write(bytes);
  const splitter = new Jt808Splitter();
  const frames: Uint8Array[] = [];
  const buf = new Uint8Array(4096);
  while (frames.length < count) {
    const n = await c.read(buf);
    if (n === null) break;
    frames.push(...splitter.push(buf.subarray(0, n)));
  }
  // Message id and body of each answer (unescaped content between the flags).
  return frames.map((f) => ({ id: (f[1] << 8) | f[2], body: f.subarray(13, f.length - 2) }));
}

const text = (s: string) => new TextEncoder().encode(s);

Deno.test("attachment upload: a lost piece is asked again, then the picture is stored", async () => {
  const s = await setup();
  try {
    s.video.desk.onVideo(s.conn, {
      kind: "safetyAlarm",
      family: "adas",
      alarmType: 1,
      label: LABEL,
      files: 1,
      time: Date.UTC(2026, 10, 26, 4),
    });
    for (let i = 0; i < 50 && !s.sent.length; i++) await new Promise((r) => setTimeout(r, 10));
    const ask = s.sent[0];
    assert.ok(ask?.type === "attachmentUpload");
    assert.equal(ask.label, LABEL);
    const name = `00_01_6401_0_${ask.alarmNo}.jpg`;
    const c = await Deno.connect({ hostname: "127.0.0.1", port: s.server.port });
    const info = new ByteWriter().bytes(text("0123456")).bytes(Uint8Array.from(
      LABEL.match(/../g)!.map((h) => parseInt(h, 16)),
    )).bytes(text(ask.alarmNo)).u8(0).u8(1).u8(name.length).bytes(text(name)).u32(PICTURE.length)
      .finish();
    const [ack] = await exchange(c, encodeMessage(TO, 0x1210, 1, info), 1);
    assert.equal(ack.id, 0x8001);
    assert.equal(ack.body[4], 0, "accepted");
    const file = new ByteWriter().u8(name.length).bytes(text(name)).u8(0).u32(PICTURE.length)
      .finish();
    await exchange(c, encodeMessage(TO, 0x1211, 2, file), 1);
    // Pieces of 1000 bytes; the third one is lost on the way.
    for (let off = 0; off < PICTURE.length; off += 1000) {
      if (off !== 2000) await c.write(dataPacket(name, off, PICTURE.subarray(off, off + 1000)));
    }
    const [missing] = await exchange(c, encodeMessage(TO, 0x1212, 3, file), 1);
    assert.equal(missing.id, 0x9212);
    const tail = missing.body.subarray(1 + name.length);
    assert.deepEqual([...tail], [0, 1, 1, 0, 0, 0x07, 0xd0, 0, 0, 0x03, 0xe8]);
    await c.write(dataPacket(name, 2000, PICTURE.subarray(2000, 3000)));
    const [complete] = await exchange(c, encodeMessage(TO, 0x1212, 4, file), 1);
    assert.deepEqual([...complete.body.subarray(1 + name.length)], [0, 0, 0]);
    c.close();
    const { list } = await s.video.services.events.list(
      { accountId: "u", cAccountId: "u", isVirtual: false, jti: "j", via: "bearer" },
      {
        startTime: "2026-11-26T00:00:00Z",
        endTime: "2026-11-27T00:00:00Z",
        pageNum: 1,
        pageSize: 10,
      },
    );
    assert.equal(list.length, 1);
    assert.equal(list[0].state, "obtainedPicture");
    assert.equal(list[0].alertId, "alert-1");
    assert.equal(list[0].alarmType, "adas:1");
    const stored = await Deno.readFile(`${s.dataDir}/video/events/${list[0].id}/${name}`);
    assert.deepEqual(stored, PICTURE);
  } finally {
    await s.server.close();
    s.kv.close();
    await Deno.remove(s.dataDir, { recursive: true });
  }
});

Deno.test("attachment listener: garbage and unknown alarms close their connection only", async () => {
  const s = await setup();
  try {
    // Random bytes without a frame flag are skipped; the oversized data packet after them closes
    // the connection. (With a flag in them, the packet would be read as the inside of a frame,
    // which closes at 16 KB or when idle: the second connection.)
    const garbage = crypto.getRandomValues(new Uint8Array(2000)).map((b) => b === 0x7e ? 0 : b);
    const huge = dataPacket("x", 0, new Uint8Array(0));
    huge.set([0x7f, 0xff, 0xff, 0xff], huge.length - 4);
    const endlessFrame = new Uint8Array(20_000).fill(0x41);
    endlessFrame[0] = 0x7e;
    for (const wire of [[garbage, huge], [endlessFrame]]) {
      const junk = await Deno.connect({ hostname: "127.0.0.1", port: s.server.port });
      for (const bytes of wire) await junk.write(bytes).catch(() => 0);
      const buf = new Uint8Array(100);
      while ((await junk.read(buf).catch(() => null)) !== null) { /* until closed */ }
      junk.close();
    }
    const c = await Deno.connect({ hostname: "127.0.0.1", port: s.server.port });
    const info = new ByteWriter().bytes(text("0123456")).bytes(new Uint8Array(16))
      .bytes(text("f".repeat(32))).u8(0).u8(0).finish();
    const [refused] = await exchange(c, encodeMessage(TO, 0x1210, 1, info), 1);
    assert.equal(refused.id, 0x8001);
    assert.equal(refused.body[4], 1, "failure: no such alarm");
    assert.equal(await c.read(new Uint8Array(10)), null, "then closed");
    c.close();
  } finally {
    await s.server.close();
    s.kv.close();
    await Deno.remove(s.dataDir, { recursive: true });
  }
});
