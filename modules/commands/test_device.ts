/**
 * A device on the far side of a LiveConnection, for tests without sockets: frames the
 * gateway writes are parsed with the simulator's device-side parsers, the answer frame is
 * built the way a tracker builds it and decoded by the gateway's real decoder, and any
 * commandReply goes to CommandService.onReply exactly as the TCP server hands it over.
 * Not a test file itself.
 */
import { gt06 } from "../gateway/protocols/gt06/index.ts";
import { jt808 } from "../gateway/protocols/jt808/index.ts";
import { newSession, type TcpProtocol } from "../gateway/protocols/types.ts";
import type { LiveConnection } from "../gateway/types.ts";
import { encodeOutgoing } from "../gateway/link/outgoing.ts";
import { gt06CommandReply, Gt06StreamReader, parseGt06Command } from "../simulator/devices/gt06.ts";
import {
  jt808GeneralReply,
  jt808LocationReply,
  Jt808StreamReader,
} from "../simulator/devices/jt808.ts";
import { sampleFix } from "../simulator/fix.ts";
import type { CommandService } from "./service.ts";

export interface TestDeviceOptions {
  imei: string;
  protocol: "gt06" | "jt808";
  /** What the device answers; null stays silent (the command times out). */
  answer?: (text: string) => string | null;
  /** JT/T 808 result code in the 0x0001 reply (0 success). */
  jt808Result?: number;
}

export function testConnection(commands: CommandService, o: TestDeviceOptions) {
  const seen: string[] = [];
  const protocol: TcpProtocol = o.protocol === "gt06" ? gt06 : jt808;
  const session = newSession();
  session.deviceId = o.imei;
  const gtReader = new Gt06StreamReader();
  const jtReader = new Jt808StreamReader();
  let serial = 1;
  const conn: LiveConnection = {
    imei: o.imei,
    protocol: protocol.name,
    remote: "test",
    connectedAt: Date.now(),
    heardAt: Date.now(),
    credentialed: false,
    close() {},
    send(command) {
      // Encoded exactly as the I/O worker encodes it, so encode errors surface the same way.
      let bytes: Uint8Array;
      try {
        bytes = encodeOutgoing(protocol, session, command);
      } catch (e) {
        return Promise.reject(e);
      }
      const replies: Uint8Array[] = [];
      if (o.protocol === "gt06") {
        for (const f of gtReader.push(bytes)) {
          const cmd = f.type === 0x80 ? parseGt06Command(f.content) : null;
          if (!cmd) continue;
          seen.push(cmd.text);
          const text = (o.answer ?? (() => "OK"))(cmd.text);
          if (text !== null) replies.push(gt06CommandReply(cmd.serverFlag, text, serial++));
        }
      } else {
        for (const f of jtReader.push(bytes)) {
          seen.push(`0x${f.msgId.toString(16)}`);
          if (o.answer && o.answer("") === null) continue;
          // A position query is answered with the location (0x0201), the rest with 0x0001.
          replies.push(
            f.msgId === 0x8201
              ? jt808LocationReply(f.terminal, serial++, f.serial, sampleFix())
              : jt808GeneralReply(f.terminal, serial++, f.serial, f.msgId, o.jt808Result ?? 0),
          );
        }
      }
      // The device answers after the write returns, like a real round trip.
      queueMicrotask(async () => {
        for (const r of replies) {
          for (const frame of protocol.createSplitter().push(r)) {
            for (const m of protocol.decode(frame, session).messages) {
              if (m.type === "commandReply") await commands.onReply(conn, m);
            }
          }
        }
      });
      return Promise.resolve();
    },
  };
  return { conn, seen, session };
}

/** Polls until `fn` gives a truthy value (5 s at most). */
export async function waitFor<T>(what: string, fn: () => Promise<T | null | undefined | false>) {
  const until = Date.now() + 5000;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
