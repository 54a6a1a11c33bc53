/**
 * A simulated JT/T 1078 dashcam behind a JT/T 808 terminal (`simulate --video`): answers 0x9101
 * (streams the test clip live to the announced host and port), 0x9102 (stops it), 0x9205 (a
 * 0x1205 list of a few recordings over the last days), 0x9201 (streams the clip as the
 * recording, once), 0x9202 (stop ends the playback) and 0x9208 (uploads the alarm's picture to
 * the attachment server: 0x1210, 0x1211, data packets, 0x1212, then waits for 0x9212); and now
 * and then raises an ADAS alarm (T/JSATL12 0x64 item with its alarm label) in a location report.
 */
import { concatBytes, latin1Text } from "../fix.ts";
import { FrameWriter } from "./frame_writer.ts";
import { bcdTime, jt808Frame, jt808GeneralReply, Jt808StreamReader } from "./jt808.ts";
import type { Jt808ServerFrame } from "./jt808.ts";
import type { LinkEvent } from "./link.ts";
import { writeAll } from "../../../lib/net/write_all.ts";

/** Streams the clip to a JT/T 1078 listener until it ends (loop false) or `signal` aborts. */
export type ClipStreamer = (o: {
  host: string;
  port: number;
  sim: string;
  channel: number;
  loop: boolean;
  signal: AbortSignal;
}) => Promise<void>;

export interface VideoTerminalOptions {
  /** Streams the test clip (modules/simulator/video); without it 0x9101/0x9201 are refused. */
  streamer?: ClipStreamer;
  /** Seconds between ADAS alarms (0: none). */
  alarmEverySeconds: number;
  /** The alarm's picture (JPEG). */
  picture: Uint8Array;
  /** Logical channels the camera has (1..n). */
  channels: number;
}

const VIDEO = {
  LIVE: 0x9101,
  LIVE_CONTROL: 0x9102,
  PLAYBACK: 0x9201,
  PLAYBACK_CONTROL: 0x9202,
  QUERY: 0x9205,
  ATTACHMENT: 0x9208,
  RESOURCES: 0x1205,
  ALARM_INFO: 0x1210,
  FILE_INFO: 0x1211,
  FILE_DONE: 0x1212,
  UPLOAD_ANSWER: 0x9212,
} as const;

/** Recordings the terminal says it has: one a few hours apart, each a minute long. */
const RECORDING_EVERY_MS = 4 * 3_600_000;
const RECORDING_MS = 60_000;
const MAX_LISTED = 30;

export class Jt808VideoTerminal {
  private readonly streams = new Map<string, AbortController>();
  private lastAlarm = Date.now();
  private alarmSeq = 0;

  constructor(
    private readonly terminal: string,
    private readonly next: () => number,
    private readonly opts: VideoTerminalOptions,
  ) {}

  /** The events for a video request, or null when `f` is not one. */
  handle(f: Jt808ServerFrame): LinkEvent[] | null {
    switch (f.msgId) {
      case VIDEO.LIVE:
      case VIDEO.PLAYBACK: {
        const r = readTarget(f.body);
        if (!r) return [this.reply(f, 2)];
        if (!this.opts.streamer) return [this.reply(f, 1)];
        const key = `${f.msgId === VIDEO.LIVE ? "live" : "playback"}:${r.channel}`;
        this.start(key, r.host, r.port, r.channel, f.msgId === VIDEO.LIVE);
        return [this.command(f, `${key} → ${r.host}:${r.port}`)];
      }
      case VIDEO.LIVE_CONTROL:
        this.stop(`live:${f.body[0]}`);
        return [this.command(f, `live close ${f.body[0]}`)];
      case VIDEO.PLAYBACK_CONTROL:
        if (f.body[1] === 2) this.stop(`playback:${f.body[0]}`);
        return [this.command(f, `playback control ${f.body[1]}`)];
      case VIDEO.QUERY:
        return [this.resources(f)];
      case VIDEO.ATTACHMENT: {
        const r = readAttachmentRequest(f.body);
        if (!r) return [this.reply(f, 2)];
        this.upload(r).catch(() => {});
        return [this.command(f, `attachment upload → ${r.host}:${r.port}`)];
      }
    }
    return null;
  }

  /** The 0x64 ADAS item of a location report when an alarm is due (forward collision). */
  alarmItem(time: Date): Uint8Array | null {
    const every = this.opts.alarmEverySeconds * 1000;
    if (every <= 0 || Date.now() - this.lastAlarm < every) return null;
    this.lastAlarm = Date.now();
    this.alarmSeq = (this.alarmSeq + 1) & 0xff;
    const label = new FrameWriter().bytes(asciiId(this.terminal)).bytes(bcdTime(time))
      .u8(this.alarmSeq).u8(1).u8(0).done();
    const body = new FrameWriter()
      .u32(this.alarmSeq).u8(1).u8(0x01).u8(1) // id, status start, forward collision, level 1
      .u8(40).u8(12).u8(0).u8(0).u8(0).u8(50) // front speed, distance, deviation, sign, data, speed
      .u16(10).u32(0).u32(0).bytes(bcdTime(time)).u16(0) // altitude, lat, lng, time, status
      .bytes(label).done();
    return new FrameWriter().u8(0x64).u8(body.length).bytes(body).done();
  }

  stopAll(): void {
    for (const c of this.streams.values()) c.abort();
    this.streams.clear();
  }

  private start(key: string, host: string, port: number, channel: number, live: boolean): void {
    this.stop(key);
    const abort = new AbortController();
    this.streams.set(key, abort);
    this.opts.streamer!({
      host,
      port,
      sim: this.terminal,
      channel,
      loop: live,
      signal: abort.signal,
    }).catch(() => {}).finally(() => {
      if (this.streams.get(key) === abort) this.streams.delete(key);
    });
  }

  private stop(key: string): void {
    this.streams.get(key)?.abort();
    this.streams.delete(key);
  }

  /** 0x1205: recordings of the asked channel (all when 0) inside the asked range. */
  private resources(f: Jt808ServerFrame): LinkEvent {
    const channel = f.body[0] ?? 0;
    const from = parseBcd(f.body.subarray(1, 7)) ?? Date.now() - 3 * 86_400_000;
    const to = parseBcd(f.body.subarray(7, 13)) ?? Date.now();
    const channels = channel === 0
      ? Array.from({ length: this.opts.channels }, (_, i) => i + 1)
      : [channel];
    const w = new FrameWriter();
    let count = 0;
    const first = Math.ceil(Math.max(from, Date.now() - 3 * 86_400_000) / RECORDING_EVERY_MS) *
      RECORDING_EVERY_MS;
    for (let t = first; t + RECORDING_MS <= Math.min(to, Date.now()); t += RECORDING_EVERY_MS) {
      for (const ch of channels) {
        if (count >= MAX_LISTED) break;
        const alarm = count % 3 === 1 ? 1 : 0; // every third one recorded on an alarm
        w.u8(ch).bytes(bcdTime(new Date(t))).bytes(bcdTime(new Date(t + RECORDING_MS)))
          .u32(0).u32(alarm).u8(0).u8(1).u8(1).u32(1_200_000 + ch * 1000);
        count++;
      }
    }
    const body = concatBytes([new FrameWriter().u16(f.serial).u32(count).done(), w.done()]);
    return {
      type: "command",
      text: `query resources ${channel}`,
      replyText: `${count} files`,
      reply: jt808Frame(VIDEO.RESOURCES, this.terminal, this.next(), body),
    };
  }

  /** T/JSATL12 upload of the alarm's picture to the attachment server. */
  private async upload(r: AttachmentRequest): Promise<void> {
    const conn = await Deno.connect({ hostname: r.host, port: r.port });
    try {
      const name = `00_01_6401_0_${r.alarmNo}.jpg`;
      const pic = this.opts.picture;
      const nameBytes = new TextEncoder().encode(name);
      const info = new FrameWriter().bytes(asciiId(this.terminal)).bytes(r.label)
        .bytes(fixedAscii(r.alarmNo, 32)).u8(0).u8(1)
        .u8(nameBytes.length).bytes(nameBytes).u32(pic.length).done();
      const file = new FrameWriter().u8(nameBytes.length).bytes(nameBytes).u8(0).u32(pic.length)
        .done();
      const reader = new Jt808StreamReader();
      const answers = readFrames(conn, reader);
      await writeAll(conn, jt808Frame(VIDEO.ALARM_INFO, this.terminal, this.next(), info));
      await answers.next();
      await writeAll(conn, jt808Frame(VIDEO.FILE_INFO, this.terminal, this.next(), file));
      await answers.next();
      for (let off = 0; off < pic.length; off += 1024) {
        await writeAll(conn, dataPacket(name, off, pic.subarray(off, off + 1024)));
      }
      await writeAll(conn, jt808Frame(VIDEO.FILE_DONE, this.terminal, this.next(), file));
      for (;;) {
        const a = await answers.next();
        if (a.done || a.value.msgId === VIDEO.UPLOAD_ANSWER) break;
      }
    } finally {
      try {
        conn.close();
      } catch { /* closed */ }
    }
  }

  private reply(f: Jt808ServerFrame, result: number): LinkEvent {
    return {
      type: "send",
      frame: jt808GeneralReply(this.terminal, this.next(), f.serial, f.msgId, result),
    };
  }

  private command(f: Jt808ServerFrame, text: string): LinkEvent {
    return {
      type: "command",
      text,
      replyText: `0x${f.msgId.toString(16)} success`,
      reply: jt808GeneralReply(this.terminal, this.next(), f.serial, f.msgId, 0),
    };
  }
}

interface AttachmentRequest {
  host: string;
  port: number;
  label: Uint8Array;
  alarmNo: string;
}

/** 0x9101 / 0x9201: BYTE host length, host, WORD TCP port, WORD UDP port, BYTE channel. */
function readTarget(b: Uint8Array): { host: string; port: number; channel: number } | null {
  const n = b[0] ?? 0;
  if (b.length < 1 + n + 5) return null;
  const host = latin1Text(b.subarray(1, 1 + n));
  const port = (b[1 + n] << 8) | b[2 + n];
  return { host, port, channel: b[5 + n] };
}

/** 0x9208: host, WORD TCP, WORD UDP, BYTE[16] alarm label, BYTE[32] alarm number, 16 reserved. */
function readAttachmentRequest(b: Uint8Array): AttachmentRequest | null {
  const n = b[0] ?? 0;
  if (b.length < 1 + n + 4 + 16 + 32) return null;
  const at = 1 + n + 4;
  return {
    host: latin1Text(b.subarray(1, 1 + n)),
    port: (b[1 + n] << 8) | b[2 + n],
    label: b.slice(at, at + 16),
    alarmNo: latin1Text(b.subarray(at + 16, at + 48)).replace(/\0+$/, ""),
  };
}

function parseBcd(b: Uint8Array): number | null {
  if (b.length < 6 || b.every((x) => x === 0)) return null;
  const d = Array.from(b, (x) => (x >> 4) * 10 + (x & 15));
  // Terminal local time is GMT+8 (jt808.ts JT808_TZ_MINUTES).
  return Date.UTC(2000 + d[0], d[1] - 1, d[2], d[3], d[4], d[5]) - 8 * 3_600_000;
}

/** The terminal id field of an alarm label / 0x1210: 7 ASCII bytes. */
function asciiId(terminal: string): Uint8Array {
  return fixedAscii(terminal.slice(-7), 7);
}

function fixedAscii(text: string, size: number): Uint8Array {
  const out = new Uint8Array(size);
  out.set(new TextEncoder().encode(text).subarray(0, size));
  return out;
}

/** `30 31 63 64`, BYTE[50] name, DWORD offset, DWORD length, data. */
function dataPacket(name: string, offset: number, data: Uint8Array): Uint8Array {
  return new FrameWriter().bytes([0x30, 0x31, 0x63, 0x64]).bytes(fixedAscii(name, 50))
    .u32(offset).u32(data.length).bytes(data).done();
}

/** The server's frames; ends when it closes or stays silent for 10 s. */
async function* readFrames(conn: Deno.Conn, reader: Jt808StreamReader) {
  const buf = new Uint8Array(4096);
  for (;;) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const silent = new Promise<null>((r) => timer = setTimeout(() => r(null), 10_000));
    const n = await Promise.race([conn.read(buf), silent]).finally(() => clearTimeout(timer));
    if (n === null) return;
    for (const f of reader.push(buf.subarray(0, n))) yield f;
  }
}
