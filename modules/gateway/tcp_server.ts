import { concatBytes } from "../../lib/bytes.ts";
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

/** Registers an identified device's connection (replacing an older one) and announces it. */
function identify(
  device: Device,
  session: ReturnType<typeof newSession>,
  remote: string,
  opts: TcpListenerOptions,
  write: (bytes: Uint8Array) => Promise<void>,
  close: () => void,
): LiveConnection {
  session.deviceId = device.imei;
  if (device.timezoneOffsetMinutes !== null) {
    session.timezoneOffsetMinutes = device.timezoneOffsetMinutes;
  }
  session.extra.model = device.mcType;
  const live: LiveConnection = {
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
  return live;
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
      let fatal = false;
      try {
        frames = splitter.push(buf.slice(0, n));
      } catch (e) {
        if (e instanceof FrameError) {
          log(`[${opts.protocol.name}] ${remote}: ${e.message}; closing`);
        }
        break;
      }
      // Every frame of one read is stored in one submission and answered with one write:
      // a device sending a burst (blind-area uploads) costs one commit wait, not one per frame.
      const messages: DeviceMessage[] = [];
      const replies: Uint8Array[] = [];
      let identifiedNow: LiveConnection | null = null;
      for (const frame of frames) {
        let result;
        try {
          result = opts.protocol.decode(frame, session);
        } catch (e) {
          if (e instanceof FrameError) {
            log(`[${opts.protocol.name}] ${remote}: ${e.message}; closing`);
            fatal = true;
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
            device = null;
            fatal = true;
            break;
          }
          live = identify(device, session, remote, opts, write, close);
          identifiedNow = live;
        }
        if (fatal) break;
        if (!device) continue; // nothing is stored or acknowledged before identification
        messages.push(...result.messages);
        replies.push(...result.replies);
      }
      if (device && messages.length) {
        try {
          await opts.ingestor.submit(device, messages);
        } catch (e) {
          // Not stored, so not acknowledged: drop the connection and let the device resend.
          log(
            `[${opts.protocol.name}] ${device.imei}: store failed (${
              (e as Error).message
            }); closing`,
          );
          break;
        }
        for (const m of messages) {
          if (m.type === "commandReply" && live) opts.onCommandReply(live, m);
        }
      }
      if (replies.length) await write(concatBytes(replies));
      // Queued commands go out after the login acknowledgement.
      if (identifiedNow) opts.onIdentified(identifiedNow);
      if (fatal) break;
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
