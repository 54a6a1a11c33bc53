/**
 * The T/JSATL12 attachment listener (JT_ATTACHMENT_PORT): a terminal asked by 0x9208 connects,
 * names the alarm (0x1210), announces each file (0x1211), streams its bytes as data packets and
 * ends it (0x1212); the platform answers 0x9212 with the pieces still missing, or complete, and
 * hands complete files to EventMedia. Hostile input: bounded file sizes and counts, an idle
 * timeout, unknown alarms closed, a bad stream ends its connection only.
 */
import { log } from "../../lib/log.ts";
import { FrameError } from "../gateway/protocols/types.ts";
import {
  attachmentAck,
  AttachmentSplitter,
  decodeAttachmentFrame,
  uploadAnswer,
} from "../gateway/protocols/jt808/attachments.ts";
import type { EventMedia, MediaKind } from "./event_media.ts";

const videoLog = log.area("video");

/** Largest attachment file accepted (a 1-minute 1080p clip stays under it). */
export const MAX_ATTACHMENT_BYTES = 32 * 1024 * 1024;
/** Files one connection may announce, and their bytes together. */
const MAX_FILES = 16;
const MAX_CONNECTION_BYTES = 64 * 1024 * 1024;
/** A connection silent this long is closed. */
const IDLE_MS = 60_000;

interface Upload {
  type: number;
  size: number;
  bytes: Uint8Array;
  /** Received [start, end) ranges, merged. */
  got: [number, number][];
}

export interface AttachmentServer {
  port: number;
  close(): Promise<void>;
}

export function startAttachmentServer(
  opts: { hostname: string; port: number },
  media: EventMedia,
): AttachmentServer {
  const listener = Deno.listen({ hostname: opts.hostname, port: opts.port, transport: "tcp" });
  const conns = new Set<Deno.Conn>();
  (async () => {
    for await (const conn of listener) {
      conns.add(conn);
      serve(conn, media)
        .catch((e) => {
          if (!(e instanceof FrameError) && !closedUnderneath(e)) {
            videoLog.warn("attachment connection failed", e);
          }
        })
        .finally(() => {
          conns.delete(conn);
          try {
            conn.close();
          } catch { /* closed already */ }
        });
    }
  })().catch(() => {});
  return {
    port: (listener.addr as Deno.NetAddr).port,
    close() {
      listener.close();
      for (const c of conns) {
        try {
          c.close();
        } catch { /* closed already */ }
      }
      return Promise.resolve();
    },
  };
}

async function serve(conn: Deno.Conn, media: EventMedia): Promise<void> {
  const splitter = new AttachmentSplitter();
  const uploads = new Map<string, Upload>();
  let recordId: string | null = null;
  let serial = 0;
  const buf = new Uint8Array(64 * 1024);
  let idle = setTimeout(() => conn.close(), IDLE_MS);
  try {
    while (true) {
      const n = await conn.read(buf);
      if (n === null) return;
      clearTimeout(idle);
      idle = setTimeout(() => conn.close(), IDLE_MS);
      for (const item of splitter.push(buf.subarray(0, n))) {
        if (item.kind === "data") {
          const u = uploads.get(item.name);
          if (u) receive(u, item.offset, item.data);
          continue;
        }
        const f = decodeAttachmentFrame(item.frame);
        if (!f) continue;
        const m = f.message;
        serial = (serial + 1) & 0xffff;
        if (m?.kind === "alarmInfo") {
          const r = await media.attachmentsAnnounced(m.alarmNo, m.label, m.files.length);
          await conn.write(attachmentAck(f, serial, !!r));
          if (!r) return;
          recordId = r.id;
        } else if (m?.kind === "fileInfo") {
          const held = [...uploads.values()].reduce((n, u) => n + u.size, 0);
          if (
            !recordId || m.size > MAX_ATTACHMENT_BYTES || uploads.size >= MAX_FILES ||
            held + m.size > MAX_CONNECTION_BYTES
          ) {
            await conn.write(attachmentAck(f, serial, false));
            continue;
          }
          uploads.set(m.name, {
            type: m.type,
            size: m.size,
            bytes: new Uint8Array(m.size),
            got: [],
          });
          await conn.write(attachmentAck(f, serial));
        } else if (m?.kind === "fileDone") {
          const u = uploads.get(m.name);
          // A file never announced (0x1211) is not taken: it is complete for the terminal.
          const missing = u ? gaps(u) : [];
          if (u && !missing.length && recordId) {
            // Stored before "complete": the terminal may delete its copy on that answer.
            uploads.delete(m.name);
            await media.addFile(recordId, m.name, kindOf(u.type, m.name), u.bytes);
          }
          await conn.write(uploadAnswer(f.to, serial, m, missing));
        }
        // Anything else (or a message of another link) is not answered.
      }
    }
  } finally {
    clearTimeout(idle);
  }
}

/** The socket was closed (by the idle timer, the peer or shutdown) while reading or writing. */
function closedUnderneath(e: unknown): boolean {
  return e instanceof Deno.errors.Interrupted || e instanceof Deno.errors.BadResource ||
    e instanceof Deno.errors.ConnectionReset || e instanceof Deno.errors.BrokenPipe;
}

/** Copies a data packet into its file (bytes past the announced size are dropped). */
function receive(u: Upload, offset: number, data: Uint8Array): void {
  if (offset >= u.size) return;
  const part = data.subarray(0, u.size - offset);
  u.bytes.set(part, offset);
  u.got.push([offset, offset + part.length]);
  u.got.sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const r of u.got) {
    const last = merged[merged.length - 1];
    if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else merged.push([r[0], r[1]]);
  }
  u.got = merged;
}

/** The [offset, length] pieces not received yet. */
function gaps(u: Upload): [number, number][] {
  const out: [number, number][] = [];
  let at = 0;
  for (const [s, e] of u.got) {
    if (s > at) out.push([at, s - at]);
    at = Math.max(at, e);
  }
  if (at < u.size) out.push([at, u.size - at]);
  return out;
}

/** 0x1211 type 0 picture, 2 video; the name's extension decides otherwise. */
function kindOf(type: number, name: string): MediaKind {
  if (type === 0 || /\.(jpe?g|png)$/i.test(name)) return "picture";
  if (type === 2 || /\.(mp4|h264|264|avi)$/i.test(name)) return "video";
  return "other";
}
