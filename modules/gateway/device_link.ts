import { concatBytes } from "../../lib/bytes.ts";
import type { LinkDevice } from "./link_messages.ts";
import { encodeOutgoing, type OutgoingCommand } from "./outgoing.ts";
import {
  type DeviceMessage,
  FrameError,
  newSession,
  type ProtocolSession,
  type TcpProtocol,
} from "./protocols/types.ts";

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
 */
export function openLink(
  socket: LinkSocket,
  id: number,
  protocol: TcpProtocol,
  host: LinkHost,
  { idleMs, loginMs, onLoginTimeout }: LinkTimes,
): { link: DeviceLink; input: LinkInput } {
  const splitter = protocol.createSplitter();
  let closed = false;
  const link: DeviceLink = {
    id,
    protocol,
    session: newSession(),
    remote: socket.remote,
    device: null,
    write: (bytes) => closed ? Promise.resolve() : socket.write(bytes),
    send: (command) => link.write(encodeOutgoing(protocol, link.session, command)),
    close() {
      if (closed) return;
      closed = true;
      socket.close();
    },
  };
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
  // A connection that never identifies (an idle or hostile socket) is closed at its login
  // deadline, long before the idle time: thousands of them would take every descriptor.
  const login = setTimeout(() => {
    if (link.device) return;
    onLoginTimeout?.();
    link.close();
  }, loginMs);

  /**
   * Splits, decodes, stores and answers what one read brought; false ends the connection.
   * Not the body of a read loop: a suspended async function keeps whatever its registers
   * last held, so a loop would hold the previous read's frames and messages for a whole
   * report interval, and they would all survive into the old generation.
   */
  const data = async (bytes: Uint8Array): Promise<boolean> => {
    lastData = Date.now();
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
    if (replies.length) await link.write(replies.length === 1 ? replies[0] : concatBytes(replies));
    if (loggedIn) host.ready(link);
    return !fatal;
  };

  const input: LinkInput = {
    data,
    closed() {
      clearTimeout(idle);
      clearTimeout(login);
      closed = true;
      host.closed(link);
    },
  };
  return { link, input };
}

function identify(link: DeviceLink, device: LinkDevice): void {
  link.device = device;
  link.session.deviceId = device.imei;
  if (device.timezoneOffsetMinutes !== null) {
    link.session.timezoneOffsetMinutes = device.timezoneOffsetMinutes;
  }
  link.session.extra.model = device.mcType;
}
