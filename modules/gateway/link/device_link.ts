import { describe, type LogLevel } from "../../../lib/log.ts";
import { linkMetrics, type ProtocolCounters } from "../metrics.ts";
import type { LinkDevice, LoginAnswer } from "./link_messages.ts";
import { LinkReader } from "./link_reader.ts";
import type { OutgoingCommand } from "./outgoing.ts";
import type { DeviceMessage, ProtocolSession, TcpProtocol } from "../protocols/types.ts";

/** One device connection, inside the I/O worker that owns its socket. */
export interface DeviceLink {
  id: number;
  protocol: TcpProtocol;
  session: ProtocolSession;
  remote: string;
  device: LinkDevice | null;
  /** The device is known but the link has not presented its credential yet (strict JT/T 808). */
  awaitingCredential: boolean;
  /** Writes in order (replies and commands never interleave on the wire). */
  write(bytes: Uint8Array): Promise<void>;
  /** Encodes a command with this link's session and writes it. */
  send(command: OutgoingCommand): Promise<void>;
  close(): void;
}

/** What a link needs from the rest of the gateway (the main thread, seen from a worker). */
export interface LinkHost {
  /** Who the device is; null refuses it (unknown or disabled), "busy" too (logged by the host). */
  login(link: DeviceLink, id: string): Promise<LoginAnswer>;
  /** A registration: the auth code to answer with, or null to refuse it. */
  register(link: DeviceLink, terminal: string): Promise<string | null>;
  /** An authentication: the device when the code is right, else null (the link stays open). */
  authenticate(link: DeviceLink, code: string): Promise<LinkDevice | null>;
  /** The login acknowledgement is written (queued commands may go out now). */
  ready(link: DeviceLink): void;
  /** Resolves once the messages are durably stored; rejects if they could not be. */
  store(link: DeviceLink, messages: DeviceMessage[]): Promise<void>;
  closed(link: DeviceLink): void;
  log(line: string, level?: LogLevel): void;
}

/**
 * What a link counts (its protocol's series, metrics.ts) and where its refused frames are
 * told: `fault` writes at most one line per key (device or address, protocol, kind) a minute.
 */
export interface LinkWatch {
  counters: ProtocolCounters;
  fault(key: string, line: string, detail?: unknown): void;
}

/** A connected device socket as its link sees it, whichever transport serves it. */
export interface LinkSocket {
  remote: string;
  /**
   * Writes after any earlier writes (replies and commands never interleave on the wire);
   * resolves once the kernel took every byte, or at once when the socket is gone.
   */
  write(bytes: Uint8Array): Promise<void>;
  /** Closes the socket; the transport then reports `closed` to the link. */
  close(): void;
}

/** How long a link may stay silent, and stay unidentified. */
export interface LinkTimes {
  idleMs: number;
  /** Closes a link not identified this long after it opened (DEVICE_LOGIN_SECONDS). */
  loginMs: number;
  /** A link was closed for not identifying in time (counted, not logged one by one). */
  onLoginTimeout?: () => void;
}

/** What a transport feeds an open link. */
export interface LinkInput {
  /**
   * One read's bytes, valid only during the call's synchronous part (the splitter copies
   * what it keeps, so transports reuse one read buffer). Resolves false when the connection
   * must end. The transport hands over no further read before it settles.
   */
  data(bytes: Uint8Array): Promise<boolean>;
  /** The socket closed (either side); called once. */
  closed(): void;
}

/**
 * Opens a link on a connected socket: reads are split and decoded, the host stores what
 * they carry and only then are the replies written. Every failure ends this connection only.
 * The work per read is LinkReader's (link_reader.ts).
 */
export function openLink(
  socket: LinkSocket,
  id: number,
  protocol: TcpProtocol,
  host: LinkHost,
  times: LinkTimes,
  watch: LinkWatch = unwatched(host),
): { link: DeviceLink; input: LinkInput } {
  const reader = new LinkReader(socket, id, protocol, host, times, watch);
  const input: LinkInput = {
    data: (bytes) => reader.read(bytes),
    closed: () => reader.ended(),
  };
  return { link: reader.link, input };
}

/** A link nobody watches (tests): its own counters, every fault line told. */
function unwatched(host: LinkHost): LinkWatch {
  return {
    counters: linkMetrics().protocols.gt06,
    fault: (_key, line, detail) =>
      host.log(detail === undefined ? line : `${line}: ${describe(detail)}`, "warn"),
  };
}
