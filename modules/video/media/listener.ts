/**
 * The JT/T 1078 media listener (JT1078_PORT): each TCP connection's bytes are split into
 * packets, sub-packages joined into frames, and the frames fed to the hub's stream for their
 * (SIM, channel). Hostile input rules of the gateway: bounded buffers (a partial packet, a
 * partial frame per lane), garbage skipped to the next header, a connection that sends only
 * garbage or stays silent is closed, a connection cap; one connection's failure touches no other.
 */
import { log as logger } from "../../../lib/log.ts";
import { MAX_CHANNEL } from "../model.ts";
import type { HubStream, MediaHubImpl } from "./hub.ts";
import { PacketSplitter } from "./jt1078.ts";
import { FrameAssembler } from "./reassembly.ts";

const mediaLog = logger.area("video-media");
/** (SIM, channel) streams one connection may carry (terminals open one per channel). */
const MAX_LANES = 8;

export interface MediaListenerOptions {
  hostname?: string;
  /** Most media connections at once; more are closed on accept. */
  maxConnections?: number;
  /** A connection silent this long is closed. */
  idleMs?: number;
  /** Bytes of garbage (no valid packet) after which a connection is closed. */
  garbageLimit?: number;
}

export interface MediaListener {
  port: number;
  close(): Promise<void>;
}

/** Listens on `port` (0: any free port; the answer says which). */
export function startMediaListener(
  hub: MediaHubImpl,
  port: number,
  options: MediaListenerOptions = {},
): MediaListener {
  const listener = Deno.listen({ hostname: options.hostname ?? "0.0.0.0", port });
  const open = new Set<Deno.TcpConn>();
  const served: Promise<void>[] = [];
  const max = options.maxConnections ?? 2000;
  const accepting = (async () => {
    for await (const conn of listener) {
      if (open.size >= max) {
        conn.close();
        continue;
      }
      open.add(conn);
      const done = serveConnection(hub, conn, options)
        .catch((e) => mediaLog.warn("media connection failed", e))
        .finally(() => open.delete(conn));
      served.push(done);
      if (served.length > 1024) served.splice(0, served.length - 1024);
    }
  })().catch(() => {});
  return {
    port: (listener.addr as Deno.NetAddr).port,
    async close() {
      listener.close();
      for (const c of open) closeQuietly(c);
      await accepting;
      await Promise.allSettled(served);
    },
  };
}

async function serveConnection(
  hub: MediaHubImpl,
  conn: Deno.TcpConn,
  options: MediaListenerOptions,
): Promise<void> {
  const splitter = new PacketSplitter();
  const assembler = new FrameAssembler();
  const streams = new Map<string, HubStream>();
  const idleMs = options.idleMs ?? 60_000;
  const garbageLimit = options.garbageLimit ?? 64 * 1024;
  let closed = false;
  let lastData = Date.now();
  let packets = 0;
  let refused = false;
  const handle = {
    close: () => {
      if (closed) return;
      closed = true;
      closeQuietly(conn);
    },
  };
  const idle = setInterval(() => {
    if (Date.now() - lastData > idleMs) handle.close();
  }, Math.min(idleMs, 10_000));
  const buf = new Uint8Array(64 * 1024);
  try {
    while (!closed) {
      const n = await conn.read(buf).catch(() => null);
      if (n === null) break;
      const now = Date.now();
      lastData = now;
      for (const packet of splitter.push(buf.subarray(0, n))) {
        packets++;
        if (packet.channel < 1 || packet.channel > MAX_CHANNEL) continue;
        const frame = assembler.push(packet);
        if (!frame) continue;
        const k = `${frame.sim}/${frame.channel}`;
        let stream = streams.get(k);
        if (!stream) {
          // Media nobody asked for (or too many channels on one connection): hang up.
          const opened = streams.size < MAX_LANES
            ? hub.open(handle, frame.sim, frame.channel)
            : null;
          if (!opened) {
            refused = true;
            break;
          }
          stream = opened;
          streams.set(k, stream);
        }
        hub.feed(stream, frame, now);
      }
      if (refused) break;
      if (splitter.skipped > garbageLimit && splitter.skipped > packets * 1024) break;
    }
  } finally {
    clearInterval(idle);
    handle.close();
    hub.disconnected(streams.values());
  }
}

function closeQuietly(conn: Deno.Conn): void {
  try {
    conn.close();
  } catch { /* already closed */ }
}
