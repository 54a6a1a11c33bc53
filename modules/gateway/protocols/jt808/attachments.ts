/**
 * The T/JSATL12 alarm attachment link (the terminal connects to the server named in 0x9208):
 * JT/T 808 frames 0x1210 (alarm attachment info), 0x1211 (file info), 0x1212 (file upload
 * complete), answered by 0x8001 and 0x9212 (complete, or the pieces to send again), and raw
 * file data packets between them: `30 31 63 64`, file name BYTE[50], DWORD offset, DWORD
 * length, data. Bytes ⇄ typed messages only; the listener is modules/video/attachment_server.ts.
 * Hostile input: every size is bounded, garbage is skipped, nothing throws but FrameError.
 */
import { FrameError } from "../types.ts";
import { ByteReader, ByteWriter } from "./bytes.ts";
import { Result } from "./constants.ts";
import { encodeMessage, generalReply } from "./encoder.ts";
import { FLAG, unescape } from "./escape.ts";
import { readHeader } from "./header.ts";
import type { TerminalAddress } from "./session_state.ts";

export const AttachmentMsgId = {
  ALARM_INFO: 0x1210,
  FILE_INFO: 0x1211,
  FILE_DONE: 0x1212,
  UPLOAD_ANSWER: 0x9212,
} as const;

const DATA_MAGIC = [0x30, 0x31, 0x63, 0x64];
const NAME_BYTES = 50;
const DATA_HEADER_BYTES = 4 + NAME_BYTES + 8;
/** One data packet carries at most this much (terminals send 64 KiB or less). */
export const MAX_DATA_PACKET = 256 * 1024;
/** A frame of this link (0x1210 with its file list) is at most this long, escaped. */
const MAX_FRAME = 16 * 1024;

export type AttachmentItem =
  | { kind: "frame"; frame: Uint8Array }
  | { kind: "data"; name: string; offset: number; data: Uint8Array };

/** Splits the attachment link's byte stream into JT/T 808 frames and file data packets. */
export class AttachmentSplitter {
  private buf = new Uint8Array(0);

  push(chunk: Uint8Array): AttachmentItem[] {
    const joined = new Uint8Array(this.buf.length + chunk.length);
    joined.set(this.buf);
    joined.set(chunk, this.buf.length);
    const out: AttachmentItem[] = [];
    let at = 0;
    while (at < joined.length) {
      if (isDataAt(joined, at)) {
        if (joined.length - at < DATA_HEADER_BYTES) break; // the header is not all here yet
        const r = new ByteReader(joined, at + 4 + NAME_BYTES);
        const offset = r.u32();
        const length = r.u32();
        if (length > MAX_DATA_PACKET) throw new FrameError("attachment data packet too long");
        if (joined.length - at < DATA_HEADER_BYTES + length) break;
        const start = at + DATA_HEADER_BYTES;
        out.push({
          kind: "data",
          name: fileName(joined.subarray(at + 4, at + 4 + NAME_BYTES)),
          offset,
          data: joined.slice(start, start + length),
        });
        at = start + length;
      } else if (joined[at] === FLAG) {
        const end = joined.indexOf(FLAG, at + 1);
        if (end < 0) {
          if (joined.length - at > MAX_FRAME) throw new FrameError("attachment frame too long");
          break;
        }
        if (end === at + 1) { // two flags in a row: the second opens the frame
          at = end;
          continue;
        }
        out.push({ kind: "frame", frame: joined.slice(at, end + 1) });
        at = end + 1;
      } else {
        at = nextStart(joined, at + 1);
      }
    }
    this.buf = joined.slice(at);
    return out;
  }
}

/** The data magic starts at `at` (or may: the stream ends inside it). */
function isDataAt(b: Uint8Array, at: number): boolean {
  for (let i = 0; i < 4 && at + i < b.length; i++) {
    if (b[at + i] !== DATA_MAGIC[i]) return false;
  }
  return true;
}

/** Garbage: skip to the next frame flag or data magic. */
function nextStart(b: Uint8Array, from: number): number {
  for (let i = from; i < b.length; i++) {
    if (b[i] === FLAG || b[i] === DATA_MAGIC[0]) return i;
  }
  return b.length;
}

function fileName(bytes: Uint8Array): string {
  let end = bytes.indexOf(0);
  if (end < 0) end = bytes.length;
  return new TextDecoder().decode(bytes.subarray(0, end)).trim();
}

export interface AttachmentFile {
  name: string;
  size: number;
}

export type AttachmentMessage =
  | {
    kind: "alarmInfo";
    terminal: string;
    label: string;
    alarmNo: string;
    files: AttachmentFile[];
  }
  | { kind: "fileInfo"; name: string; type: number; size: number }
  | { kind: "fileDone"; name: string; type: number; size: number };

export interface DecodedAttachmentFrame {
  to: TerminalAddress;
  msgId: number;
  serial: number;
  message: AttachmentMessage | null;
}

/** Decodes one frame of the link; null when it is not a JT/T 808 frame at all. */
export function decodeAttachmentFrame(frame: Uint8Array): DecodedAttachmentFrame | null {
  try {
    const content = unescape(frame.subarray(1, frame.length - 1));
    if (content.length < 13) return null;
    const r = new ByteReader(content, 0, content.length - 1);
    const header = readHeader(r);
    const to = { version: header.version, terminal: header.terminal };
    return {
      to,
      msgId: header.msgId,
      serial: header.serial,
      message: readMessage(header.msgId, r),
    };
  } catch {
    return null;
  }
}

function readMessage(msgId: number, r: ByteReader): AttachmentMessage | null {
  const text = (n: number) => new TextDecoder().decode(r.bytes(n)).replace(/\0+$/, "").trim();
  if (msgId === AttachmentMsgId.ALARM_INFO) {
    const terminal = text(7);
    let label = "";
    for (const b of r.bytes(16)) label += b.toString(16).padStart(2, "0");
    const alarmNo = text(32);
    r.skip(1); // info type: 0 normal, 1 supplementary
    const count = Math.min(r.u8(), 64);
    const files: AttachmentFile[] = [];
    for (let i = 0; i < count && r.remaining > 0; i++) {
      const name = text(r.u8());
      files.push({ name, size: r.u32() });
    }
    return { kind: "alarmInfo", terminal, label, alarmNo, files };
  }
  if (msgId === AttachmentMsgId.FILE_INFO || msgId === AttachmentMsgId.FILE_DONE) {
    const name = text(r.u8());
    const type = r.u8();
    const size = r.u32();
    return {
      kind: msgId === AttachmentMsgId.FILE_INFO ? "fileInfo" : "fileDone",
      name,
      type,
      size,
    };
  }
  return null;
}

/** 0x8001 for a frame of the link. */
export function attachmentAck(f: DecodedAttachmentFrame, serial: number, ok = true): Uint8Array {
  return generalReply(f.to, serial, f.serial, f.msgId, ok ? Result.SUCCESS : Result.FAILURE);
}

/** 0x9212: the file is complete (no ranges), or these [offset, length] ranges are missing. */
export function uploadAnswer(
  to: TerminalAddress,
  serial: number,
  file: { name: string; type: number },
  missing: [number, number][],
): Uint8Array {
  const name = new TextEncoder().encode(file.name).subarray(0, 255);
  const w = new ByteWriter().u8(name.length).bytes(name).u8(file.type)
    .u8(missing.length ? 1 : 0).u8(Math.min(missing.length, 255));
  for (const [offset, length] of missing.slice(0, 255)) w.u32(offset).u32(length);
  return encodeMessage(to, AttachmentMsgId.UPLOAD_ANSWER, serial, w.finish());
}

/** A file data packet as a terminal sends it (the simulator and tests use it). */
export function dataPacket(name: string, offset: number, data: Uint8Array): Uint8Array {
  const nameBytes = new Uint8Array(NAME_BYTES);
  nameBytes.set(new TextEncoder().encode(name).subarray(0, NAME_BYTES));
  return new ByteWriter().bytes(new Uint8Array(DATA_MAGIC)).bytes(nameBytes).u32(offset)
    .u32(data.length).bytes(data).finish();
}
