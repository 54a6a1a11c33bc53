/**
 * Messages between the main thread and the gateway's I/O workers.
 *
 * A worker owns device sockets: it reads, splits, decodes and writes (acknowledgements and
 * commands). The main thread owns everything shared: the device directory, the group commit,
 * device states, the event bus and the command records. A "link" is one device connection,
 * numbered by its worker; the main thread names it by worker and link id.
 */
import type { LogLevel } from "../../../lib/log.ts";
import type { OutgoingCommand } from "./outgoing.ts";
import type { DeviceMessage, TcpProtocol } from "../protocols/types.ts";
import type { DeviceLimits } from "../transport/listeners.ts";
import type { GatewayIo } from "../transport/transport.ts";

export type ProtocolName = TcpProtocol["name"];
export type PortMap = Record<ProtocolName, number>;

/** What a worker needs to know of an identified device. */
export interface LinkDevice {
  imei: string;
  timezoneOffsetMinutes: number | null;
  mcType: string;
  /**
   * The device is known but the link must still present its credential (JT/T 808
   * authentication) before it may report; until then its reports get the protocol's refusal.
   */
  awaitingCredential?: true;
}

/**
 * A login's answer: the device; null when unknown or disabled; "busy" when the device's
 * current connection is active and the login proved nothing (device_identity.ts).
 */
export type LoginAnswer = LinkDevice | null | "busy";

export type ToWorker =
  /** Listen on these ports (0: any; the first worker's real ports go to the others). */
  | {
    t: "init";
    hostname: string;
    ports: PortMap;
    reusePort: boolean;
    limits: DeviceLimits;
    io: GatewayIo;
  }
  /** Answer to `login` (and `authenticate`): the device, or why not (null: close). */
  | { t: "login"; link: number; device: LoginAnswer }
  /** Answer to `register`: the auth code issued, or null when refused. */
  | { t: "registered"; link: number; code: string | null }
  /** These links' last data is committed (write their replies) or failed (close them). */
  | { t: "stored"; links: number[]; failed: number[] }
  | { t: "send"; link: number; req: number; command: OutgoingCommand }
  | { t: "close"; link: number }
  /** Close the listeners and every connection, then answer `stopped`. */
  | { t: "stop" };

export type ToMain =
  | { t: "listening"; ports: PortMap; io: "epoll" | "deno" }
  | { t: "listenFailed"; error: string; inUse: boolean }
  /** A device identified itself on a new link. */
  | { t: "login"; link: number; id: string; protocol: ProtocolName; remote: string }
  /** The link's device asks for credentials (JT/T 808 registration). */
  | { t: "register"; link: number; terminal: string }
  /** The link presents its credential (JT/T 808 auth code). */
  | { t: "authenticate"; link: number; code: string }
  /** The login acknowledgement is written: queued commands may go out. */
  | { t: "ready"; link: number }
  /**
   * Data to store, one entry per link (each link has at most one batch outstanding), with
   * what the worker's counters gained since its last report (metrics.ts), if anything.
   */
  | { t: "data"; links: number[]; messages: DeviceMessage[][]; counts?: number[] }
  /** The worker's counters changed without data to carry them (connections, refusals). */
  | { t: "counts"; counts: number[] }
  | { t: "closed"; link: number }
  /** Result of `send`: written, or why not. */
  | { t: "sent"; req: number; error?: "encode" | "write" }
  | { t: "log"; line: string; level?: LogLevel }
  | { t: "stopped" };
