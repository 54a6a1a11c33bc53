import { concatBytes } from "../../../lib/bytes.ts";
import { describe, type LogLevel } from "../../../lib/log.ts";
import { linkMetrics, type ProtocolCounters, type Refusal } from "../metrics.ts";
import type { LinkDevice, LoginAnswer } from "./link_messages.ts";
import { encodeOutgoing, type OutgoingCommand } from "./outgoing.ts";
import {
  type DecodeResult,
  type DeviceMessage,
  FrameError,
  newSession,
  type ProtocolSession,
  type TcpProtocol,
} from "../protocols/types.ts";

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

/**
 * The session counters each decoder keeps for frames it read despite a fault (a wrong
 * checksum is tolerated, see the decoders' CHECKSUM POLICY) or dropped (content cut short,
 * an exception): the link turns their growth into metrics and rate-limited lines.
 */
const FAULT_KINDS = ["checksum", "decode", "malformed"] as const;
const SESSION_FAULTS: Record<
  TcpProtocol["name"],
  { checksum?: string; decode?: string; malformed?: string }
> = {
  gt06: { checksum: "badCrc", decode: "decodeErrors", malformed: "truncated" },
  jt808: { checksum: "jt808BadChecksums", decode: "decodeErrors", malformed: "truncated" },
  h02: { decode: "decodeErrors" },
};

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
  watch: LinkWatch = unwatched(host),
): { link: DeviceLink; input: LinkInput } {
  const counters = watch.counters;
  const splitter = protocol.createSplitter();
  let closed = false;
  const link: DeviceLink = {
    id,
    protocol,
    session: newSession(),
    remote: socket.remote,
    device: null,
    awaitingCredential: false,
    write: (bytes) => closed ? Promise.resolve() : socket.write(bytes),
    send: (command) => link.write(encodeOutgoing(protocol, link.session, command)),
    close() {
      if (closed) return;
      closed = true;
      socket.close();
    },
  };
  /** The device when known (with its address), else the address. */
  const who = () => {
    const id = link.device?.imei ?? link.session.deviceId;
    return id ? `${id} (${link.remote})` : link.remote;
  };
  /** Ends the connection for `why`: counted, and told at most once a minute per kind. */
  const refuse = (kind: Refusal | "store", why: string) => {
    if (kind !== "store") counters.refused[kind].inc();
    watch.fault(
      `${protocol.name}|${link.device?.imei ?? link.remote}|${kind}`,
      `[${protocol.name}] ${who()}: ${why}; closing`,
    );
  };
  const faultKeys = SESSION_FAULTS[protocol.name];
  const seen = { checksum: 0, decode: 0, malformed: 0 };
  /** Counts and tells what the decoders counted in the session during one read. */
  const noteSessionFaults = () => {
    const x = link.session.extra;
    for (const kind of FAULT_KINDS) {
      const key = faultKeys[kind];
      const n = key === undefined ? undefined : x[key];
      if (typeof n !== "number" || n === seen[kind]) continue;
      const added = n - seen[kind];
      seen[kind] = n;
      if (kind === "checksum") counters.badChecksums.inc(added);
      else if (kind === "decode") counters.decodeErrors.inc(added);
      else counters.refused.malformed.inc(added);
      const what = kind === "checksum"
        ? "frame with a wrong checksum (kept)"
        : kind === "decode"
        ? "decoder failed on a frame (dropped)"
        : "malformed frame (dropped)";
      watch.fault(
        `${protocol.name}|${link.device?.imei ?? link.remote}|${kind}`,
        `[${protocol.name}] ${who()}: ${what}`,
      );
    }
  };

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
      if (e instanceof FrameError) {
        refuse(/exceeds/.test(e.message) ? "oversized" : "malformed", e.message);
      }
      return false;
    }
    counters.frames.inc(frames.length);
    // Every frame of one read is stored in one submission and answered with one write:
    // a device sending a burst (blind-area uploads) costs one commit wait, not one per frame.
    const messages: DeviceMessage[] = [];
    const replies: Uint8Array[] = [];
    const read: ReadState = { loggedIn: false, fatal: false };
    for (const frame of frames) {
      let result: DecodeResult;
      try {
        result = protocol.decode(frame, link.session);
      } catch (e) {
        if (!(e instanceof FrameError)) {
          // A decoder bug must not take the link down: the frame is dropped and told.
          counters.decodeErrors.inc();
          watch.fault(
            `${protocol.name}|${link.device?.imei ?? link.remote}|decode`,
            `[${protocol.name}] ${who()}: decoder failed on a ${frame.length}-byte frame (dropped)`,
            e,
          );
          continue;
        }
        refuse("malformed", e.message);
        read.fatal = true;
        break;
      }
      let list = result.messages;
      for (let i = 0; i < list.length && !read.fatal; i++) {
        const m = list[i];
        if (m.type === "identify") {
          const again = await logIn(m, frame, read);
          // The frame read another way (identify.fallback): its messages replace these.
          if (again) [result, list, i] = [again, again.messages, -1];
        } else if (m.type === "register" || m.type === "authenticate") {
          replies.push(await credential(m, read));
        } else if (link.device) {
          messages.push(m);
        }
      }
      if (read.fatal) break;
      // Nothing is stored or acknowledged before identification; a link still owing its
      // credential is told its reports are refused.
      if (link.device) replies.push(...result.replies);
      else if (link.awaitingCredential && result.refusal) replies.push(result.refusal());
    }
    noteSessionFaults();
    const { loggedIn, fatal } = read;
    if (messages.length) {
      try {
        await host.store(link, messages);
      } catch (e) {
        // Not stored, so not acknowledged: drop the connection and let the device resend.
        refuse("store", `store failed (${(e as Error).message})`);
        return false;
      }
    }
    if (replies.length) await link.write(replies.length === 1 ? replies[0] : concatBytes(replies));
    if (loggedIn) host.ready(link);
    return !fatal;
  };

  /**
   * Identifies the link from a frame's identify message. When only the message's fallback id
   * is a known device, the session takes that reading and the frame's decode under it is
   * returned.
   */
  const logIn = async (
    m: Extract<DeviceMessage, { type: "identify" }>,
    frame: Uint8Array,
    read: ReadState,
  ): Promise<DecodeResult | undefined> => {
    if (link.device || link.awaitingCredential) return undefined;
    let answer = await host.login(link, m.id);
    let again: DecodeResult | undefined;
    if (answer === null && m.fallback) {
      answer = await host.login(link, m.fallback.id);
      if (answer !== null) {
        Object.assign(link.session.extra, m.fallback.extra);
        link.session.deviceId = m.fallback.id;
        again = protocol.decode(frame, link.session);
      }
    }
    if (answer === null) {
      refuse("unknown_device", `device ${m.id} not registered in the routing table`);
    }
    if (answer === null || answer === "busy") {
      read.fatal = true; // a refused second login is logged by the host
      return undefined;
    }
    if (answer.awaitingCredential) link.awaitingCredential = true;
    else markIdentified(answer, read);
    return again;
  };

  const markIdentified = (device: LinkDevice, read: ReadState) => {
    link.awaitingCredential = false;
    identify(link, device);
    clearTimeout(login);
    read.loggedIn = true;
  };

  /** Registration and authentication: the host decides, the protocol words the answer. */
  let refusedCredentials = 0;
  const credential = async (
    m: Extract<DeviceMessage, { type: "register" | "authenticate" }>,
    read: ReadState,
  ): Promise<Uint8Array> => {
    const known = link.device !== null || link.awaitingCredential;
    if (m.type === "register") {
      return m.reply(known ? await host.register(link, m.id) : null);
    }
    const device = known ? await host.authenticate(link, m.code) : null;
    if (device && !link.device) markIdentified(device, read);
    if (!device && ++refusedCredentials >= MAX_REFUSED_CREDENTIALS) {
      refuse("credentials", `${refusedCredentials} wrong auth codes`);
      read.fatal = true;
    }
    return m.reply(device !== null);
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

/** What one read's frames did to the link. */
interface ReadState {
  /** The link was identified (its queued commands may go out once the replies are written). */
  loggedIn: boolean;
  /** The connection must end. */
  fatal: boolean;
}

/**
 * Refused authentications one connection may make (a terminal with an old code needs one,
 * then registers): more is someone guessing codes.
 */
const MAX_REFUSED_CREDENTIALS = 5;

/** A link nobody watches (tests): its own counters, every fault line told. */
function unwatched(host: LinkHost): LinkWatch {
  return {
    counters: linkMetrics().protocols.gt06,
    fault: (_key, line, detail) =>
      host.log(detail === undefined ? line : `${line}: ${describe(detail)}`, "warn"),
  };
}

function identify(link: DeviceLink, device: LinkDevice): void {
  link.device = device;
  link.session.deviceId = device.imei;
  if (device.timezoneOffsetMinutes !== null) {
    link.session.timezoneOffsetMinutes = device.timezoneOffsetMinutes;
  }
  link.session.extra.model = device.mcType;
}
