/**
 * Joins JT/T 1078 sub-packages (first, middle…, last) into frames, per (SIM, channel, video or
 * audio): audio packets may sit between one video frame's sub-packages, and several channels
 * share one connection. A lost packet (sequence gap not explained by the other kind's packets)
 * or a broken order drops the frame in progress; assembly resumes at the next atomic or first
 * packet. Frames are bounded in size.
 */
import { DataType, type Packet, SubFlag } from "./jt1078.ts";

/** A frame larger than this is dropped (a 4K I-frame is well below). */
export const MAX_FRAME_BYTES = 2 * 1024 * 1024;

export interface MediaFrame {
  sim: string;
  channel: number;
  kind: "video" | "audio";
  /** I, P, B or audio (DataType). */
  dataType: number;
  payloadType: number;
  timestamp: number;
  /** The packet's "last frame interval" (ms since the previous video frame; 0 for audio). */
  frameIntervalMs: number;
  data: Uint8Array;
}

interface Partial {
  parts: Uint8Array[];
  bytes: number;
  first: Packet;
}

interface Lane {
  partial: Partial | null;
  lastSequence: number;
  /** Packets of the other kind on the same channel since this lane's last packet. */
  othersSince: number;
}

export class FrameAssembler {
  #lanes = new Map<string, Lane>();
  /** Frames dropped because a packet was lost, out of order or the frame too large. */
  dropped = 0;

  /** Feeds one packet; returns the frame it completes, if any. Passthrough data is ignored. */
  push(p: Packet): MediaFrame | null {
    if (p.dataType === DataType.Passthrough) return null;
    const kind = p.dataType === DataType.Audio ? "audio" : "video";
    const key = `${p.sim}/${p.channel}/${kind}`;
    const other = this.#lanes.get(`${p.sim}/${p.channel}/${kind === "audio" ? "video" : "audio"}`);
    if (other) other.othersSince++;
    let lane = this.#lanes.get(key);
    if (!lane) {
      lane = { partial: null, lastSequence: -1, othersSince: 0 };
      this.#lanes.set(key, lane);
    }
    const continuous = lane.lastSequence < 0 ||
      isNext(lane.lastSequence, p.sequence, lane.othersSince);
    lane.lastSequence = p.sequence;
    lane.othersSince = 0;
    if (lane.partial && !continuous) this.#drop(lane);
    return this.#place(lane, p, kind);
  }

  /** Forgets a channel's lanes (its connection closed). */
  forget(sim: string, channel: number): void {
    this.#lanes.delete(`${sim}/${channel}/video`);
    this.#lanes.delete(`${sim}/${channel}/audio`);
  }

  #place(lane: Lane, p: Packet, kind: "video" | "audio"): MediaFrame | null {
    switch (p.subFlag) {
      case SubFlag.Atomic:
        if (lane.partial) this.#drop(lane);
        return frameOf(p, kind, p.body);
      case SubFlag.First:
        if (lane.partial) this.#drop(lane);
        lane.partial = { parts: [p.body], bytes: p.body.length, first: p };
        return null;
      default: {
        const partial = lane.partial;
        if (!partial) return null; // a middle or last without its first: skipped until resync
        partial.parts.push(p.body);
        partial.bytes += p.body.length;
        if (partial.bytes > MAX_FRAME_BYTES) {
          this.#drop(lane);
          return null;
        }
        if (p.subFlag === SubFlag.Middle) return null;
        lane.partial = null;
        return frameOf(partial.first, kind, join(partial.parts, partial.bytes));
      }
    }
  }

  #drop(lane: Lane): void {
    lane.partial = null;
    this.dropped++;
  }
}

/** Next sequence with a counter shared by audio and video, or one per kind (both exist). */
function isNext(last: number, seq: number, othersBetween: number): boolean {
  const gap = (seq - last + 0x10000) & 0xffff;
  return gap === 1 || gap === othersBetween + 1;
}

function frameOf(p: Packet, kind: "video" | "audio", data: Uint8Array): MediaFrame {
  return {
    sim: p.sim,
    channel: p.channel,
    kind,
    dataType: p.dataType,
    payloadType: p.payloadType,
    timestamp: p.timestamp,
    frameIntervalMs: p.lastFrameInterval,
    data,
  };
}

function join(parts: Uint8Array[], bytes: number): Uint8Array {
  const out = new Uint8Array(bytes);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
