import { Admission, type ConnectionCount, ShedLog } from "./admission.ts";
import {
  type DeviceLink,
  type LinkHost,
  type LinkInput,
  type LinkWatch,
  openLink,
} from "../link/device_link.ts";
import { type AreaLogger, describe, RateLimitedLog } from "../../../lib/log.ts";
import { type LinkMetrics, linkMetrics } from "../metrics.ts";
import { DenoTransport } from "./deno_transport.ts";
import { EpollTransport } from "./epoll_transport.ts";
import type { PortMap, ProtocolName } from "../link/link_messages.ts";
import { gt06 } from "../protocols/gt06/index.ts";
import { h02 } from "../protocols/h02/index.ts";
import { jt808 } from "../protocols/jt808/index.ts";
import type { TcpProtocol } from "../protocols/types.ts";
import {
  epollUsable,
  type GatewayIo,
  type SocketListener,
  type SocketTransport,
} from "./transport.ts";

export interface DeviceListeners {
  ports: PortMap;
  /** Which transport serves the sockets. */
  io: SocketTransport["name"];
  /** Links by id, while open. */
  links: Map<number, DeviceLink>;
  /** Closes the listeners and every link. */
  close(): Promise<void>;
}

const PROTOCOLS: Record<ProtocolName, TcpProtocol> = { gt06, jt808, h02 };

/** The transport `GATEWAY_IO` asks for ("auto": epoll where usable, else Deno's sockets). */
export function createTransport(io: GatewayIo, hostname: string): SocketTransport {
  if (io === "deno" || (io === "auto" && !epollUsable(hostname))) {
    return new DenoTransport();
  }
  try {
    return new EpollTransport();
  } catch (e) {
    // "auto" on a Linux whose libc is not glibc's libc.so.6 (e.g. musl): Deno's sockets.
    if (io === "epoll") throw e;
    return new DenoTransport();
  }
}

/** How long links may stay silent or unidentified, and how many may be open. */
export interface DeviceLimits {
  idleMs: number;
  /** DEVICE_LOGIN_SECONDS in ms. */
  loginMs: number;
  /** The process-wide count of device connections and its cap. */
  connections: ConnectionCount;
}

/** Listens on the three TCP protocol ports and serves every connection with `host`. */
export function listenDevices(
  hostname: string,
  ports: PortMap,
  reusePort: boolean,
  limits: DeviceLimits,
  host: LinkHost,
  io: GatewayIo = "auto",
  metrics: LinkMetrics = linkMetrics(),
): DeviceListeners {
  const transport = createTransport(io, hostname);
  metrics.sendQueueBytes.sampler = () => transport.queuedBytes();
  const faults = new RateLimitedLog(hostLogger(host), "warn");
  const watches = {} as Record<ProtocolName, LinkWatch>;
  for (const name of Object.keys(PROTOCOLS) as ProtocolName[]) {
    watches[name] = {
      counters: metrics.protocols[name],
      fault: (key, line, detail) => faults.log(key, line, detail),
    };
  }
  const bound = { ...ports };
  const listeners: SocketListener[] = [];
  const links = new Map<number, DeviceLink>();
  const admission = new Admission<DeviceLink>(limits.connections);
  const shedLog = new ShedLog(host.log, limits);
  let nextId = 1;
  const close = async () => {
    shedLog.stop();
    for (const l of listeners) l.close();
    for (const link of links.values()) link.close();
    await transport.close();
  };
  const times = { ...limits, onLoginTimeout: () => shedLog.note("login") };
  for (const name of Object.keys(PROTOCOLS) as ProtocolName[]) {
    const protocol = PROTOCOLS[name];
    try {
      const listener = transport.listen(hostname, ports[name], reusePort, (socket) => {
        const id = nextId++;
        const watch = watches[name];
        const { link, input } = openLink(socket, id, protocol, host, times, watch);
        const verdict = admission.admit(link);
        if (!verdict.keep) {
          // Over the cap with every other connection identified: this one goes.
          shedLog.note("refused");
          socket.close();
          return refusedInput(() => {
            admission.release(link);
            input.closed();
          });
        }
        if (verdict.shed) {
          shedLog.note("shed");
          verdict.shed.close();
        }
        links.set(id, link);
        watch.counters.connections.inc();
        return {
          data: input.data,
          closed() {
            watch.counters.connections.dec();
            links.delete(id);
            admission.release(link);
            input.closed();
          },
        };
      });
      listeners.push(listener);
      bound[name] = listener.port;
    } catch (e) {
      close();
      throw portError(e, portSetting(name), ports[name]);
    }
  }
  return { ports: bound, io: transport.name, links, close };
}

/**
 * The host's log as an area logger, for the rate limiter: the line goes where the host sends
 * it (from an I/O worker, to the main thread, which applies LOG_LEVEL).
 */
function hostLogger(host: LinkHost): AreaLogger {
  const at = (level: "debug" | "info" | "warn" | "error") => (m: string, detail?: unknown) =>
    host.log(detail === undefined ? m : `${m}: ${describe(detail)}`, level);
  return {
    area: "gateway",
    enabled: () => true,
    debug: at("debug"),
    info: at("info"),
    warn: at("warn"),
    error: at("error"),
  };
}

/** Input of a connection closed as soon as accepted: reads nothing, reports its close. */
function refusedInput(closed: () => void): LinkInput {
  return { data: () => Promise.resolve(false), closed };
}

/** "Address in use" naming the setting to change (the OS error names no port). */
export function portError(e: unknown, setting: string, port: number): unknown {
  if (!(e instanceof Deno.errors.AddrInUse)) return e;
  return new Deno.errors.AddrInUse(`${setting} ${port} is already in use by another process`);
}

/** The configuration variable of a protocol's port. */
export const portSetting = (protocol: ProtocolName) => `${protocol.toUpperCase()}_PORT`;
