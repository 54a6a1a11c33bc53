/**
 * Cluster mode's link (issue 23): core NATS messages between instances. NATS_URL may list
 * several servers (comma-separated); once connected the client reconnects forever, with a
 * delay that grows with the outage (250 ms up to 2 s, jittered), and `state()` follows the
 * connection's status events (down from "disconnect" until "reconnect").
 *
 * Everything here is core NATS (at-most-once): the subjects in SUBJECTS carry live events,
 * cache invalidations and commands, where a lost message only means a stale view or a retried
 * request. JetStream is not used by the link (no subscriber needs replay yet).
 *
 * Request/reply: `reply` subscribes in a queue group, so one answering instance gets each
 * request; a handler's error goes back as an empty-status reply with the `Tp-Error` header set
 * and the message as payload, and becomes a LinkRemoteError on the asking side. No responder,
 * a timeout or a connection that is gone all reject with LinkTimeout.
 */
import {
  connect,
  headers,
  type Msg,
  type NatsConnection,
  RequestError,
} from "@nats-io/transport-node";
import { log } from "../log.ts";
import { within } from "../within.ts";
import { UnreachableError, withoutPassword } from "../net/unreachable.ts";
import { type ClusterLink, type LinkHandler, LinkRemoteError, LinkTimeout } from "./types.ts";

const linkLog = log.area("cluster");

/** The header that marks a reply as the responder's error (payload: its message). */
const ERROR_HEADER = "Tp-Error";
/** Queue group of responders: each request goes to one of them. */
const RESPONDERS = "tp-responders";
/** Reconnect delay bounds: short outages heal fast, long ones are not hammered. */
const RECONNECT_MIN_MS = 250;
const RECONNECT_MAX_MS = 2_000;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export interface NatsLinkOptions {
  /** Shown in the server's connection list (`nats server report connections`). */
  name?: string;
  /** How long the first connection may take before start-up fails. */
  connectTimeoutMs?: number;
}

/** Splits NATS_URL's comma-separated list. */
export function natsServers(natsUrl: string): string[] {
  return natsUrl.split(",").map((s) => s.trim()).filter((s) => s !== "");
}

/** Where to connect and as whom: the client ignores credentials written in a server's URL. */
export interface NatsTarget {
  /** The servers without credentials. */
  servers: string[];
  user?: string;
  pass?: string;
  token?: string;
}

/**
 * Reads NATS_URL: `nats://user:pass@host:port` logs in with user and password,
 * `nats://token@host:port` with a token (the NATS convention). The first server that carries
 * credentials gives them for all (a cluster's servers share their accounts).
 */
export function natsTarget(natsUrl: string): NatsTarget {
  const target: NatsTarget = { servers: [] };
  for (const server of natsServers(natsUrl)) {
    const url = URL.canParse(server) ? new URL(server) : null;
    if (!url || (!url.username && !url.password)) {
      target.servers.push(server);
      continue;
    }
    const user = decodeURIComponent(url.username), pass = decodeURIComponent(url.password);
    if (!target.user && !target.token) {
      if (url.password) Object.assign(target, { user, pass });
      else target.token = user;
    }
    url.username = "";
    url.password = "";
    target.servers.push(`${url.protocol}//${url.host}`);
  }
  return target;
}

export class NatsLink implements ClusterLink {
  private current: "up" | "down" = "up";
  private downSince = 0;
  private closing = false;
  private readonly listeners = new Set<(state: "up" | "down") => void>();

  private constructor(private readonly nc: NatsConnection) {
    this.watchStatus();
  }

  /** Connects to the first reachable server of `natsUrl`; throws UnreachableError if none. */
  static async connect(natsUrl: string, opts: NatsLinkOptions = {}): Promise<NatsLink> {
    const { servers, ...credentials } = natsTarget(natsUrl);
    let link: NatsLink | undefined;
    try {
      const nc = await connect({
        servers,
        ...credentials,
        name: opts.name,
        timeout: opts.connectTimeoutMs ?? 5_000,
        maxReconnectAttempts: -1,
        // Credentials refused on a reconnect (a password being rotated): keep trying, as for
        // any outage (/health answers 503 meanwhile), rather than give up for good.
        ignoreAuthErrorAbort: true,
        // Grows with the outage; `link` is set once connected (reconnects come after).
        reconnectDelayHandler: () => link?.reconnectDelay() ?? RECONNECT_MIN_MS,
        // A half-open connection (no FIN) is noticed within ~15 s, not the default 4 min.
        pingInterval: 5_000,
        maxPingOut: 2,
      });
      link = new NatsLink(nc);
      return link;
    } catch (e) {
      throw new UnreachableError("NATS", servers.map(withoutPassword).join(","), e);
    }
  }

  publish(subject: string, data: Uint8Array): void {
    try {
      this.nc.publish(subject, data);
    } catch (e) {
      // Closed or draining: at-most-once allows dropping; say so once per cause, not per event.
      linkLog.debug(`publish on ${subject} dropped`, e);
    }
  }

  subscribe(subject: string, handler: LinkHandler): () => void {
    const sub = this.nc.subscribe(subject, {
      callback: (err, msg) => {
        if (err) return linkLog.warn(`subscription ${subject} ended`, err);
        try {
          handler(msg.data, msg.subject);
        } catch (e) {
          linkLog.error(`handler of ${subject} failed`, e);
        }
      },
    });
    return () => sub.unsubscribe();
  }

  async request(subject: string, data: Uint8Array, timeoutMs: number): Promise<Uint8Array> {
    let msg: Msg;
    try {
      msg = await this.nc.request(subject, data, { timeout: timeoutMs });
    } catch (e) {
      if (!(e instanceof RequestError) || !e.isNoResponders()) {
        linkLog.debug(`request on ${subject} failed`, e);
      }
      throw new LinkTimeout(subject);
    }
    if (msg.headers?.has(ERROR_HEADER)) throw new LinkRemoteError(decoder.decode(msg.data));
    return msg.data;
  }

  reply(subject: string, handler: (data: Uint8Array) => Promise<Uint8Array>): () => void {
    const sub = this.nc.subscribe(subject, {
      queue: RESPONDERS,
      callback: (err, msg) => {
        if (err) return linkLog.warn(`responder ${subject} ended`, err);
        void answer(msg, handler);
      },
    });
    return () => sub.unsubscribe();
  }

  state(): "up" | "down" {
    return this.current;
  }

  /** Resolves once the server has seen everything sent before (subscriptions included). */
  async flush(): Promise<void> {
    await this.nc.flush();
  }

  /** Called on every change of `state()` (for logs and tests). */
  onState(listener: (state: "up" | "down") => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /** Flushes what was published (drain) when connected; closes at once otherwise. */
  async close(): Promise<void> {
    this.closing = true;
    if (this.nc.isClosed()) return;
    if (this.current === "up") {
      if (await within(this.nc.drain(), 2_000)) return;
    }
    await this.nc.close().catch(() => {});
  }

  private reconnectDelay(): number {
    const outage = this.downSince ? Date.now() - this.downSince : 0;
    const base = Math.min(RECONNECT_MAX_MS, Math.max(RECONNECT_MIN_MS, outage / 2));
    return Math.round(base * (0.8 + Math.random() * 0.4));
  }

  private watchStatus(): void {
    void (async () => {
      for await (const s of this.nc.status()) {
        if (s.type === "disconnect") this.setState("down", `disconnected from ${s.server}`);
        else if (s.type === "reconnect") this.setState("up", `reconnected to ${s.server}`);
        else if (s.type === "close") this.setState("down", "closed");
      }
    })();
    void this.nc.closed().then(() => this.setState("down", "closed"));
  }

  private setState(state: "up" | "down", why: string): void {
    if (state === this.current) return;
    this.current = state;
    this.downSince = state === "down" ? Date.now() : 0;
    if (!this.closing) (state === "up" ? linkLog.info : linkLog.warn)(`NATS ${state}: ${why}`);
    for (const listener of this.listeners) listener(state);
  }
}

/** Runs a responder and sends back its answer, or its error under the Tp-Error header. */
async function answer(
  msg: Msg,
  handler: (data: Uint8Array) => Promise<Uint8Array>,
): Promise<void> {
  let result: Uint8Array;
  try {
    result = await handler(msg.data);
  } catch (e) {
    const h = headers();
    h.set(ERROR_HEADER, "1");
    msg.respond(encoder.encode(e instanceof Error ? e.message : String(e)), { headers: h });
    return;
  }
  msg.respond(result);
}
