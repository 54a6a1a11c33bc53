import type { Device } from "../devices/model.ts";
import type { DeviceDirectory } from "../devices/directory.ts";
import type { EventBus } from "./bus.ts";
import type { ConnectionRegistry, LiveConnection } from "./connections.ts";
import type { Ingestor } from "./ingest.ts";
import { type DeviceMessage, FrameError, newSession, type TcpProtocol } from "./protocols/types.ts";

export interface TcpListenerOptions {
  protocol: TcpProtocol;
  hostname: string;
  port: number;
  directory: DeviceDirectory;
  ingestor: Ingestor;
  connections: ConnectionRegistry;
  bus: EventBus;
  /** Called with command replies and after identification (to deliver queued commands). */
  onCommandReply: (
    conn: LiveConnection,
    reply: Extract<DeviceMessage, { type: "commandReply" }>,
  ) => void;
  onIdentified: (conn: LiveConnection) => void;
  /** A silent connection is closed after this (half-open sockets, idle attackers). */
  idleMs: number;
  log?: (msg: string) => void;
}

export interface TcpListenerHandle {
  port: number;
  close(): void;
}

/**
 * Bytes read per call. Each connection holds one such buffer for its lifetime, so it is
 * kept small (frames larger than this are assembled by the splitters across reads): with
 * 16 KiB, 10,000 idle connections used ~100 MiB more RSS (docs/performance.md).
 */
const READ_BUFFER = 4 * 1024;

/** Listens for one protocol's devices; every connection is isolated from the others. */
export function startTcpListener(opts: TcpListenerOptions): TcpListenerHandle {
  const listener = Deno.listen({ hostname: opts.hostname, port: opts.port, transport: "tcp" });
  const open = new Set<Deno.Conn>();
  (async () => {
    for await (const conn of listener) {
      open.add(conn);
      handleConnection(conn, opts).catch(() => {}).finally(() => open.delete(conn));
    }
  })().catch(() => {});
  return {
    port: (listener.addr as Deno.NetAddr).port,
    close() {
      try {
        listener.close();
      } catch { /* closed */ }
      for (const c of open) {
        try {
          c.close();
        } catch { /* closed */ }
      }
    },
  };
}

async function handleConnection(conn: Deno.Conn, opts: TcpListenerOptions): Promise<void> {
  const log = opts.log ?? ((m: string) => console.log(m));
  const remote = `${(conn.remoteAddr as Deno.NetAddr).hostname}:${
    (conn.remoteAddr as Deno.NetAddr).port
  }`;
  const splitter = opts.protocol.createSplitter();
  const session = newSession();
  let device: Device | null = null;
  let live: LiveConnection | null = null;
  let closed = false;
  let writing = Promise.resolve();
  const close = () => {
    if (closed) return;
    closed = true;
    try {
      conn.close();
    } catch { /* already closed */ }
  };
  const write = (bytes: Uint8Array) => {
    // Serialise writes so replies and commands never interleave on the wire.
    writing = writing.then(async () => {
      let off = 0;
      while (off < bytes.length && !closed) off += await conn.write(bytes.subarray(off));
    }).catch(() => close());
    return writing;
  };

  // One timer per connection, re-armed only when it fires (not per read: clearTimeout +
  // setTimeout per frame showed up in profiles); it closes after idleMs without data.
  let lastData = Date.now();
  const onIdle = () => {
    const left = opts.idleMs - (Date.now() - lastData);
    if (left > 0) idle = setTimeout(onIdle, left);
    else close();
  };
  let idle = setTimeout(onIdle, opts.idleMs);
  const buf = new Uint8Array(READ_BUFFER);
  try {
    while (!closed) {
      const n = await conn.read(buf);
      if (n === null) break;
      lastData = Date.now();
      let frames: Uint8Array[];
      try {
        frames = splitter.push(buf.slice(0, n));
      } catch (e) {
        if (e instanceof FrameError) {
          log(`[${opts.protocol.name}] ${remote}: ${e.message}; closing`);
        }
        break;
      }
      for (const frame of frames) {
        let result;
        try {
          result = opts.protocol.decode(frame, session);
        } catch (e) {
          if (e instanceof FrameError) {
            log(`[${opts.protocol.name}] ${remote}: ${e.message}; closing`);
            close();
            break;
          }
          continue; // a decoder bug must not take the connection down
        }
        for (const m of result.messages) {
          if (m.type !== "identify" || device) continue;
          device = await opts.directory.resolve(m.id);
          if (!device || !device.enabled) {
            log(
              `[${opts.protocol.name}] ${remote}: device ${m.id} not registered in the routing table; closing`,
            );
            close();
            break;
          }
          session.deviceId = device.imei;
          if (device.timezoneOffsetMinutes !== null) {
            session.timezoneOffsetMinutes = device.timezoneOffsetMinutes;
          }
          session.extra.model = device.mcType;
          live = {
            imei: device.imei,
            protocol: opts.protocol,
            session,
            remote,
            connectedAt: Date.now(),
            write,
            close,
          };
          opts.connections.attach(live);
          opts.bus.publish({
            type: "connection",
            imei: device.imei,
            userId: device.userId,
            connected: true,
          });
          opts.onIdentified(live);
        }
        if (closed) break;
        if (!device) continue; // nothing is stored or acknowledged before identification
        try {
          await opts.ingestor.submit(device, result.messages);
        } catch (e) {
          // Not stored, so not acknowledged: drop the connection and let the device resend.
          log(
            `[${opts.protocol.name}] ${device.imei}: store failed (${
              (e as Error).message
            }); closing`,
          );
          close();
          break;
        }
        for (const m of result.messages) {
          if (m.type === "commandReply" && live) opts.onCommandReply(live, m);
        }
        for (const reply of result.replies) await write(reply);
      }
    }
  } catch {
    // A reset or broken socket ends only this connection.
  } finally {
    clearTimeout(idle);
    close();
    if (live && opts.connections.detach(live) && device) {
      opts.bus.publish({
        type: "connection",
        imei: device.imei,
        userId: device.userId,
        connected: false,
      });
    }
  }
}
