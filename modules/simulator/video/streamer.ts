/**
 * A simulated JT/T 1078 terminal's media connection: packetises a clip (H.264 frames cut into
 * ≤ 950-byte sub-packages, G.711A audio in 40 ms frames with the HiSilicon header) and sends it
 * at real time (timestamps from the clip's frame rate), looping if asked, until the signal
 * aborts or the server closes the connection.
 */
import { encodeBcd } from "../../gateway/protocols/jt808/bcd.ts";
import { DataType, encodePacket, MAX_BODY, SubFlag } from "../../video/media/jt1078.ts";
import type { Clip } from "./clip.ts";
import { writeAll } from "../../../lib/net/write_all.ts";

export interface StreamClipOptions {
  host: string;
  port: number;
  /** The terminal's SIM (phone number), up to 12 digits. */
  sim: string;
  channel: number;
  clip: Clip;
  loop?: boolean;
  signal?: AbortSignal;
  /** >1 sends faster than real time (tests); default 1. */
  rateMultiplier?: number;
  /** Payload type of the video (98 H.264). */
  payloadType?: number;
  /** SIM field size: 6 (JT/T 1078-2016, default) or 10 (terminals on JT/T 808-2019). */
  simLength?: 6 | 10;
}

export interface StreamStats {
  frames: number;
  packets: number;
  bytes: number;
}

const AUDIO_FRAME_BYTES = 320; // 40 ms of G.711 at 8 kHz
const G711A = 6;

/** Streams the clip; resolves when it ended (no loop), the signal aborted or the connection closed. */
export async function streamClip(o: StreamClipOptions): Promise<StreamStats> {
  const stats: StreamStats = { frames: 0, packets: 0, bytes: 0 };
  if (o.signal?.aborted) return stats;
  const conn = await Deno.connect({ hostname: o.host, port: o.port });
  const onAbort = () => {
    try {
      conn.close();
    } catch { /* closed */ }
  };
  o.signal?.addEventListener("abort", onAbort, { once: true });
  const packer = new Packetiser(encodeBcd(o.sim, o.simLength ?? 6), o.channel, o.payloadType ?? 98);
  const rate = o.rateMultiplier ?? 1;
  const frameMs = 1000 / o.clip.fps;
  const start = performance.now();
  let t = 0; // media time, ms
  let audioAt = 0; // audio bytes sent of the current pass
  let lastKeyAt = 0;
  try {
    do {
      audioAt = 0;
      const passStart = t;
      for (let i = 0; i < o.clip.frames.length; i++) {
        if (o.signal?.aborted) return stats;
        const wait = start + t / rate - performance.now();
        if (wait > 1) await new Promise((r) => setTimeout(r, wait));
        const key = o.clip.keys[i];
        if (key) lastKeyAt = t;
        const chunks = [packer.video(o.clip.frames[i], key, Math.round(t), t - lastKeyAt, frameMs)];
        // The audio of this frame's time span, in 40 ms frames.
        const audio = o.clip.audio;
        const until = Math.floor(((i + 1) * frameMs * 8) / AUDIO_FRAME_BYTES) * AUDIO_FRAME_BYTES;
        while (audio && audioAt < until && audioAt + AUDIO_FRAME_BYTES <= audio.length) {
          const ts = Math.round(passStart + audioAt / 8);
          chunks.push(packer.audio(audio.subarray(audioAt, audioAt + AUDIO_FRAME_BYTES), ts));
          audioAt += AUDIO_FRAME_BYTES;
        }
        const bytes = join(chunks);
        await writeAll(conn, bytes);
        stats.frames++;
        stats.bytes += bytes.length;
        t += frameMs;
      }
    } while (o.loop && !o.signal?.aborted);
  } catch (e) {
    // The server closed the connection (a stop), or the signal did.
    if (
      !(e instanceof Deno.errors.BadResource || e instanceof Deno.errors.BrokenPipe ||
        e instanceof Deno.errors.ConnectionReset)
    ) throw e;
  } finally {
    o.signal?.removeEventListener("abort", onAbort);
    onAbort();
    stats.packets = packer.packets;
  }
  return stats;
}

/** Cuts frames into JT/T 1078 packets with a running sequence number. */
export class Packetiser {
  packets = 0;
  #sequence = 0;
  constructor(
    private readonly simBcd: Uint8Array,
    private readonly channel: number,
    private readonly payloadType: number,
  ) {}

  video(
    frame: Uint8Array,
    key: boolean,
    ts: number,
    sinceKey: number,
    frameMs: number,
  ): Uint8Array {
    const parts: Uint8Array[] = [];
    const count = Math.max(1, Math.ceil(frame.length / MAX_BODY));
    for (let i = 0; i < count; i++) {
      const subFlag = count === 1
        ? SubFlag.Atomic
        : i === 0
        ? SubFlag.First
        : i === count - 1
        ? SubFlag.Last
        : SubFlag.Middle;
      parts.push(this.#packet({
        payloadType: this.payloadType,
        dataType: key ? DataType.I : DataType.P,
        subFlag,
        timestamp: ts,
        lastIFrameInterval: Math.round(sinceKey),
        lastFrameInterval: Math.round(frameMs),
        body: frame.subarray(i * MAX_BODY, (i + 1) * MAX_BODY),
        marker: i === count - 1,
      }));
    }
    return join(parts);
  }

  /** One G.711A frame with the HiSilicon header (`00 01 <length/2> 00`). */
  audio(samples: Uint8Array, ts: number): Uint8Array {
    const body = new Uint8Array(samples.length + 4);
    body.set([0x00, 0x01, samples.length / 2, 0x00]);
    body.set(samples, 4);
    return this.#packet({
      payloadType: G711A,
      dataType: DataType.Audio,
      subFlag: SubFlag.Atomic,
      timestamp: ts,
      lastIFrameInterval: 0,
      lastFrameInterval: 0,
      body,
      marker: true,
    });
  }

  #packet(p: Omit<Parameters<typeof encodePacket>[0], "simBcd" | "sequence" | "channel">) {
    this.packets++;
    return encodePacket({
      ...p,
      simBcd: this.simBcd,
      channel: this.channel,
      sequence: this.#sequence++ & 0xffff,
    });
  }
}

function join(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
