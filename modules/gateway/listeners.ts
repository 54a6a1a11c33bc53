import { type DeviceLink, type LinkHost, openLink } from "./device_link.ts";
import { DenoTransport } from "./deno_transport.ts";
import { EpollTransport } from "./epoll_transport.ts";
import type { PortMap, ProtocolName } from "./link_messages.ts";
import { gt06 } from "./protocols/gt06/index.ts";
import { h02 } from "./protocols/h02/index.ts";
import { jt808 } from "./protocols/jt808/index.ts";
import type { TcpProtocol } from "./protocols/types.ts";
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

/** Listens on the three TCP protocol ports and serves every connection with `host`. */
export function listenDevices(
  hostname: string,
  ports: PortMap,
  reusePort: boolean,
  idleMs: number,
  host: LinkHost,
  io: GatewayIo = "auto",
): DeviceListeners {
  const transport = createTransport(io, hostname);
  const bound = { ...ports };
  const listeners: SocketListener[] = [];
  const links = new Map<number, DeviceLink>();
  let nextId = 1;
  const close = async () => {
    for (const l of listeners) l.close();
    for (const link of links.values()) link.close();
    await transport.close();
  };
  for (const name of Object.keys(PROTOCOLS) as ProtocolName[]) {
    const protocol = PROTOCOLS[name];
    try {
      const listener = transport.listen(hostname, ports[name], reusePort, (socket) => {
        const id = nextId++;
        const { link, input } = openLink(socket, id, protocol, host, idleMs);
        links.set(id, link);
        return {
          data: input.data,
          closed() {
            links.delete(id);
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

/** "Address in use" naming the setting to change (the OS error names no port). */
export function portError(e: unknown, setting: string, port: number): unknown {
  if (!(e instanceof Deno.errors.AddrInUse)) return e;
  return new Deno.errors.AddrInUse(`${setting} ${port} is already in use by another process`);
}

/** The configuration variable of a protocol's port. */
export const portSetting = (protocol: ProtocolName) => `${protocol.toUpperCase()}_PORT`;
