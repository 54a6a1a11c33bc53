import { concatBytes } from "../../../lib/bytes.ts";
import type { ProtocolCounters, Refusal } from "../metrics.ts";
import type { DeviceLink, LinkHost, LinkSocket, LinkTimes, LinkWatch } from "./device_link.ts";
import type { LinkDevice } from "./link_messages.ts";
import { encodeOutgoing } from "./outgoing.ts";
import {
  type DecodeResult,
  type DeviceMessage,
  FrameError,
  type FrameSplitter,
  newSession,
  type TcpProtocol,
} from "../protocols/types.ts";

/**
 * The session counters each decoder keeps for frames it read despite a fault (a wrong
 * checksum is tolerated, see the decoders' CHECKSUM POLICY) or dropped (content cut short,
 * an exception): the link turns their growth into metrics and rate-limited lines.
 */
const FAULT_KINDS = ["checksum", "decode", "malformed"] as const;
type FaultKind = typeof FAULT_KINDS[number];
const SESSION_FAULTS: Record<TcpProtocol["name"], Partial<Record<FaultKind, string>>> = {
  gt06: { checksum: "badCrc", decode: "decodeErrors", malformed: "truncated" },
  jt808: { checksum: "jt808BadChecksums", decode: "decodeErrors", malformed: "truncated" },
  h02: { decode: "decodeErrors" },
};
const FAULT_TEXT: Record<FaultKind, string> = {
  checksum: "frame with a wrong checksum (kept)",
  decode: "decoder failed on a frame (dropped)",
  malformed: "malformed frame (dropped)",
};

/**
 * Refused authentications one connection may make (a terminal with an old code needs one,
 * then registers): more is someone guessing codes.
 */
const MAX_REFUSED_CREDENTIALS = 5;

/** What one read's frames did to the link. */
interface ReadState {
  /** The link was identified (its queued commands may go out once the replies are written). */
  loggedIn: boolean;
  /** The connection must end. */
  fatal: boolean;
}

type Identify = Extract<DeviceMessage, { type: "identify" }>;
type Credential = Extract<DeviceMessage, { type: "register" | "authenticate" }>;

/**
 * One open link's state and what it does with each read: split, decode, identify, store,
 * answer. A class so the per-read path calls methods and allocates no closures; the only
 * closures (the link's write/send/close, the two timers' callbacks) are made once per
 * connection.
 */
export class LinkReader {
  readonly link: DeviceLink;
  /** Set by link.close() and by the transport's `closed`: later writes are dropped. */
  closed = false;
  private readonly counters: ProtocolCounters;
  private readonly splitter: FrameSplitter;
  private readonly faultKeys: Partial<Record<FaultKind, string>>;
  private readonly seen: Record<FaultKind, number> = { checksum: 0, decode: 0, malformed: 0 };
  private lastData = Date.now();
  private idle: ReturnType<typeof setTimeout>;
  private readonly login: ReturnType<typeof setTimeout>;
  private refusedCredentials = 0;

  constructor(
    socket: LinkSocket,
    id: number,
    private readonly protocol: TcpProtocol,
    private readonly host: LinkHost,
    private readonly times: LinkTimes,
    private readonly watch: LinkWatch,
  ) {
    this.counters = watch.counters;
    this.splitter = protocol.createSplitter();
    this.faultKeys = SESSION_FAULTS[protocol.name];
    const link: DeviceLink = {
      id,
      protocol,
      session: newSession(),
      remote: socket.remote,
      device: null,
      awaitingCredential: false,
      write: (bytes) => this.closed ? Promise.resolve() : socket.write(bytes),
      send: (command) => link.write(encodeOutgoing(protocol, link.session, command)),
      close: () => {
        if (this.closed) return;
        this.closed = true;
        socket.close();
      },
    };
    this.link = link;
    // One timer per connection, re-armed only when it fires (not per read: clearTimeout +
    // setTimeout per frame showed up in profiles); it closes after idleMs without data.
    this.idle = setTimeout(this.onIdle, times.idleMs);
    // A connection that never identifies (an idle or hostile socket) is closed at its login
    // deadline, long before the idle time: thousands of them would take every descriptor.
    this.login = setTimeout(this.onLoginDeadline, times.loginMs);
  }

  private readonly onIdle = () => {
    const left = this.times.idleMs - (Date.now() - this.lastData);
    if (left > 0) this.idle = setTimeout(this.onIdle, left);
    else this.link.close();
  };

  private readonly onLoginDeadline = () => {
    if (this.link.device) return;
    this.times.onLoginTimeout?.();
    this.link.close();
  };

  /** The socket closed: the timers stop, writes are dropped, the host forgets the link. */
  ended(): void {
    clearTimeout(this.idle);
    clearTimeout(this.login);
    this.closed = true;
    this.host.closed(this.link);
  }

  /**
   * Splits, decodes, stores and answers what one read brought; false ends the connection.
   * Not the body of a read loop: a suspended async function keeps whatever its registers
   * last held, so a loop would hold the previous read's frames and messages for a whole
   * report interval, and they would all survive into the old generation.
   */
  async read(bytes: Uint8Array): Promise<boolean> {
    this.lastData = Date.now();
    const frames = this.split(bytes);
    if (frames === null) return false;
    this.counters.frames.inc(frames.length);
    // Every frame of one read is stored in one submission and answered with one write:
    // a device sending a burst (blind-area uploads) costs one commit wait, not one per frame.
    const messages: DeviceMessage[] = [];
    const replies: Uint8Array[] = [];
    const read: ReadState = { loggedIn: false, fatal: false };
    const link = this.link;
    for (const frame of frames) {
      let result = this.decode(frame, read);
      if (result === undefined) {
        if (read.fatal) break;
        continue;
      }
      let list = result.messages;
      for (let i = 0; i < list.length && !read.fatal; i++) {
        const m = list[i];
        if (m.type === "identify") {
          const again = await this.logIn(m, frame, read);
          // The frame read another way (identify.fallback): its messages replace these.
          if (again) [result, list, i] = [again, again.messages, -1];
        } else if (m.type === "register" || m.type === "authenticate") {
          replies.push(await this.credential(m, read));
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
    this.noteSessionFaults();
    if (messages.length) {
      try {
        await this.host.store(link, messages);
      } catch (e) {
        // Not stored, so not acknowledged: drop the connection and let the device resend.
        this.refuse("store", `store failed (${(e as Error).message})`);
        return false;
      }
    }
    if (replies.length) await link.write(replies.length === 1 ? replies[0] : concatBytes(replies));
    if (read.loggedIn) this.host.ready(link);
    return !read.fatal;
  }

  /** The frames of one read, or null when the stream is broken (refused and closed). */
  private split(bytes: Uint8Array): Uint8Array[] | null {
    try {
      return this.splitter.push(bytes);
    } catch (e) {
      if (e instanceof FrameError) {
        this.refuse(/exceeds/.test(e.message) ? "oversized" : "malformed", e.message);
      }
      return null;
    }
  }

  /**
   * One frame decoded, or undefined when it is dropped (a decoder bug: told, the link lives
   * on) or malformed (refused: `read.fatal`).
   */
  private decode(frame: Uint8Array, read: ReadState): DecodeResult | undefined {
    try {
      return this.protocol.decode(frame, this.link.session);
    } catch (e) {
      if (!(e instanceof FrameError)) {
        // A decoder bug must not take the link down: the frame is dropped and told.
        this.counters.decodeErrors.inc();
        this.watch.fault(
          this.faultKey("decode"),
          `[${this.protocol.name}] ${this.who()}: decoder failed on a ${frame.length}-byte frame (dropped)`,
          e,
        );
        return undefined;
      }
      this.refuse("malformed", e.message);
      read.fatal = true;
      return undefined;
    }
  }

  /**
   * Identifies the link from a frame's identify message. When only the message's fallback id
   * is a known device, the session takes that reading and the frame's decode under it is
   * returned.
   */
  private async logIn(
    m: Identify,
    frame: Uint8Array,
    read: ReadState,
  ): Promise<DecodeResult | undefined> {
    const link = this.link;
    if (link.device || link.awaitingCredential) return undefined;
    let answer = await this.host.login(link, m.id);
    let again: DecodeResult | undefined;
    if (answer === null && m.fallback) {
      answer = await this.host.login(link, m.fallback.id);
      if (answer !== null) {
        Object.assign(link.session.extra, m.fallback.extra);
        link.session.deviceId = m.fallback.id;
        again = this.protocol.decode(frame, link.session);
      }
    }
    if (answer === null) {
      this.refuse("unknown_device", `device ${m.id} not registered in the routing table`);
    }
    if (answer === null || answer === "busy") {
      read.fatal = true; // a refused second login is logged by the host
      return undefined;
    }
    if (answer.awaitingCredential) link.awaitingCredential = true;
    else this.markIdentified(answer, read);
    return again;
  }

  /** Registration and authentication: the host decides, the protocol words the answer. */
  private async credential(m: Credential, read: ReadState): Promise<Uint8Array> {
    const link = this.link;
    const known = link.device !== null || link.awaitingCredential;
    if (m.type === "register") {
      return m.reply(known ? await this.host.register(link, m.id) : null);
    }
    const device = known ? await this.host.authenticate(link, m.code) : null;
    if (device && !link.device) this.markIdentified(device, read);
    if (!device && ++this.refusedCredentials >= MAX_REFUSED_CREDENTIALS) {
      this.refuse("credentials", `${this.refusedCredentials} wrong auth codes`);
      read.fatal = true;
    }
    return m.reply(device !== null);
  }

  private markIdentified(device: LinkDevice, read: ReadState): void {
    this.link.awaitingCredential = false;
    identify(this.link, device);
    clearTimeout(this.login);
    read.loggedIn = true;
  }

  /** Counts and tells what the decoders counted in the session during one read. */
  private noteSessionFaults(): void {
    const x = this.link.session.extra;
    for (const kind of FAULT_KINDS) {
      const key = this.faultKeys[kind];
      const n = key === undefined ? undefined : x[key];
      if (typeof n !== "number" || n === this.seen[kind]) continue;
      const added = n - this.seen[kind];
      this.seen[kind] = n;
      if (kind === "checksum") this.counters.badChecksums.inc(added);
      else if (kind === "decode") this.counters.decodeErrors.inc(added);
      else this.counters.refused.malformed.inc(added);
      this.watch.fault(
        this.faultKey(kind),
        `[${this.protocol.name}] ${this.who()}: ${FAULT_TEXT[kind]}`,
      );
    }
  }

  /** Ends the connection for `why`: counted, and told at most once a minute per kind. */
  private refuse(kind: Refusal | "store", why: string): void {
    if (kind !== "store") this.counters.refused[kind].inc();
    this.watch.fault(this.faultKey(kind), `[${this.protocol.name}] ${this.who()}: ${why}; closing`);
  }

  /** The rate-limit key of a fault: protocol, device (or address), kind. */
  private faultKey(kind: string): string {
    return `${this.protocol.name}|${this.link.device?.imei ?? this.link.remote}|${kind}`;
  }

  /** The device when known (with its address), else the address. */
  private who(): string {
    const id = this.link.device?.imei ?? this.link.session.deviceId;
    return id ? `${id} (${this.link.remote})` : this.link.remote;
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
