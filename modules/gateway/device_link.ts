import { concatBytes } from "../../lib/bytes.ts";
import type { LinkDevice, PortMap, ProtocolName } from "./link_messages.ts";
import { encodeOutgoing, type OutgoingCommand } from "./outgoing.ts";
import { gt06 } from "./protocols/gt06/index.ts";
import { h02 } from "./protocols/h02/index.ts";
import { jt808 } from "./protocols/jt808/index.ts";
import {
  type DeviceMessage,
  FrameError,
  newSession,
  type ProtocolSession,
  type TcpProtocol,
} from "./protocols/types.ts";

/**
 * Bytes read per call. Each connection holds one such buffer for its lifetime, so it is
 * kept small (frames larger than this are assembled by the splitters across reads): with
 * 16 KiB, 10,000 idle connections used ~100 MiB more RSS (docs/performance.md).
 */
const READ_BUFFER = 4 * 1024;

/** One device connection, inside the I/O worker that owns its socket. */
export interface DeviceLink {
  id: number;
  protocol: TcpProtocol;
  session: ProtocolSession;
  remote: string;
  device: LinkDevice | null;
  /** Writes in order (replies and commands never interleave on the wire). */
  write(bytes: Uint8Array): Promise<void>;
  /** Encodes a command with this link's session and writes it. */
  send(command: OutgoingCommand): Promise<void>;
  close(): void;
}

/** What a link needs from the rest of the gateway (the main thread, seen from a worker). */
export interface LinkHost {
  /** Who the device is; null refuses it (unknown or disabled). */
  login(link: DeviceLink, id: string): Promise<LinkDevice | null>;
  /** The login acknowledgement is written (queued commands may go out now). */
  ready(link: DeviceLink): void;
  /** Resolves once the messages are durably stored; rejects if they could not be. */
  store(link: DeviceLink, messages: DeviceMessage[]): Promise<void>;
  closed(link: DeviceLink): void;
  log(line: string): void;
}

/**
 * Serves one device connection until it closes: reads, splits and decodes frames, has the
 * host store what they carry and only then writes the replies. Every failure ends this
 * connection only.
 */
export async function serveLink(
  conn: Deno.Conn,
  id: number,
  protocol: TcpProtocol,
  host: LinkHost,
  idleMs: number,
  onOpen: (link: DeviceLink) => void,
): Promise<void> {
  const addr = conn.remoteAddr as Deno.NetAddr;
  const splitter = protocol.createSplitter();
  let closed = false;
  // Writes go out in order through one drain loop (an acknowledgement per read must not
  // cost a promise chain of its own); each write's promise settles when the queue is empty.
  const outbox: Uint8Array[] = [];
  let draining: Promise<void> | null = null;
  const drain = async () => {
    try {
      while (outbox.length && !closed) {
        const bytes = outbox.shift()!;
        let off = await conn.write(bytes);
        while (off < bytes.length && !closed) off += await conn.write(bytes.subarray(off));
      }
    } catch {
      link.close();
    } finally {
      draining = null;
    }
  };
  const link: DeviceLink = {
    id,
    protocol,
    session: newSession(),
    remote: `${addr.hostname}:${addr.port}`,
    device: null,
    write(bytes) {
      if (closed) return Promise.resolve();
      outbox.push(bytes);
      return draining ??= drain();
    },
    send(command) {
      return link.write(encodeOutgoing(protocol, link.session, command));
    },
    close() {
      if (closed) return;
      closed = true;
      try {
        conn.close();
      } catch { /* already closed */ }
    },
  };
  onOpen(link);
  const refuse = (why: string) => host.log(`[${protocol.name}] ${link.remote}: ${why}; closing`);

  // One timer per connection, re-armed only when it fires (not per read: clearTimeout +
  // setTimeout per frame showed up in profiles); it closes after idleMs without data.
  let lastData = Date.now();
  const onIdle = () => {
    const left = idleMs - (Date.now() - lastData);
    if (left > 0) idle = setTimeout(onIdle, left);
    else link.close();
  };
  let idle = setTimeout(onIdle, idleMs);
  /**
   * Splits, decodes, stores and answers what one read brought; false ends the connection.
   * A function of its own, not the loop's body: a suspended async function keeps whatever
   * its registers last held, so the read loop would hold the previous read's frames and
   * messages for a whole report interval, and they would all survive into the old generation.
   */
  const handleRead = async (bytes: Uint8Array): Promise<boolean> => {
    let frames: Uint8Array[];
    try {
      frames = splitter.push(bytes);
    } catch (e) {
      if (e instanceof FrameError) refuse(e.message);
      return false;
    }
    // Every frame of one read is stored in one submission and answered with one write:
    // a device sending a burst (blind-area uploads) costs one commit wait, not one per frame.
    const messages: DeviceMessage[] = [];
    const replies: Uint8Array[] = [];
    let loggedIn = false, fatal = false;
    for (const frame of frames) {
      let result;
      try {
        result = protocol.decode(frame, link.session);
      } catch (e) {
        if (!(e instanceof FrameError)) continue; // a decoder bug must not take the link down
        refuse(e.message);
        fatal = true;
        break;
      }
      for (const m of result.messages) {
        if (m.type !== "identify") {
          if (link.device) messages.push(m);
          continue;
        }
        if (link.device) continue;
        const device = await host.login(link, m.id);
        if (!device) {
          refuse(`device ${m.id} not registered in the routing table`);
          fatal = true;
          break;
        }
        identify(link, device);
        loggedIn = true;
      }
      if (fatal) break;
      // Nothing is stored or acknowledged before identification.
      if (link.device) replies.push(...result.replies);
    }
    if (messages.length) {
      try {
        await host.store(link, messages);
      } catch (e) {
        // Not stored, so not acknowledged: drop the connection and let the device resend.
        refuse(`store failed (${(e as Error).message})`);
        return false;
      }
    }
    if (replies.length) await link.write(concatBytes(replies));
    if (loggedIn) host.ready(link);
    return !fatal;
  };

  const buf = new Uint8Array(READ_BUFFER);
  try {
    while (!closed) {
      const n = await conn.read(buf);
      if (n === null) break;
      lastData = Date.now();
      if (!(await handleRead(buf.subarray(0, n)))) break;
    }
  } catch {
    // A reset or broken socket ends only this connection.
  } finally {
    clearTimeout(idle);
    link.close();
    host.closed(link);
  }
}

function identify(link: DeviceLink, device: LinkDevice): void {
  link.device = device;
  link.session.deviceId = device.imei;
  if (device.timezoneOffsetMinutes !== null) {
    link.session.timezoneOffsetMinutes = device.timezoneOffsetMinutes;
  }
  link.session.extra.model = device.mcType;
}

export interface DeviceListeners {
  ports: PortMap;
  /** Links by id, while open. */
  links: Map<number, DeviceLink>;
  /** Closes the listeners and every link. */
  close(): void;
}

const PROTOCOLS: Record<ProtocolName, TcpProtocol> = { gt06, jt808, h02 };

/** Listens on the three TCP protocol ports and serves every connection with `host`. */
export function listenDevices(
  hostname: string,
  ports: PortMap,
  reusePort: boolean,
  idleMs: number,
  host: LinkHost,
): DeviceListeners {
  const bound = { ...ports };
  const listeners: Deno.Listener[] = [];
  const links = new Map<number, DeviceLink>();
  let nextId = 1;
  const accept = async (listener: Deno.Listener, protocol: TcpProtocol) => {
    try {
      for await (const conn of listener) {
        // Acknowledgements are small writes that must leave at once (no Nagle delay).
        try {
          (conn as Deno.TcpConn).setNoDelay(true);
        } catch { /* already closed */ }
        const id = nextId++;
        serveLink(conn, id, protocol, host, idleMs, (link) => links.set(id, link))
          .catch(() => {})
          .finally(() => links.delete(id));
      }
    } catch { /* listener closed */ }
  };
  const close = () => {
    for (const l of listeners) {
      try {
        l.close();
      } catch { /* closed */ }
    }
    for (const link of links.values()) link.close();
  };
  for (const name of Object.keys(PROTOCOLS) as ProtocolName[]) {
    let listener: Deno.Listener;
    try {
      listener = Deno.listen({ hostname, port: ports[name], transport: "tcp", reusePort });
    } catch (e) {
      close();
      throw portError(e, portSetting(name), ports[name]);
    }
    listeners.push(listener);
    bound[name] = (listener.addr as Deno.NetAddr).port;
    accept(listener, PROTOCOLS[name]);
  }
  return { ports: bound, links, close };
}

/** "Address in use" naming the setting to change (the OS error names no port). */
export function portError(e: unknown, setting: string, port: number): unknown {
  if (!(e instanceof Deno.errors.AddrInUse)) return e;
  return new Deno.errors.AddrInUse(`${setting} ${port} is already in use by another process`);
}

/** The configuration variable of a protocol's port. */
export const portSetting = (protocol: ProtocolName) => `${protocol.toUpperCase()}_PORT`;
