/**
 * The gateway's side of its contract with the commands module, as types only: the commands
 * module sends through a `LiveConnection` it looks up in `Connections`, and the gateway hands
 * replies and (re)connections to a `CommandDesk`. Neither module imports the other's code; the
 * composition root (app/compose.ts) passes the real objects.
 */
import type { OutgoingCommand, TcpProtocol, VideoEvent } from "./protocols/types.ts";

/** One live device connection, as the command transport sees it. */
export interface LiveConnection {
  imei: string;
  protocol: TcpProtocol["name"];
  remote: string;
  connectedAt: number;
  /** When the connection last brought anything (login or data): the takeover rule's clock. */
  heardAt: number;
  /** The connection proved itself with a credential (JT/T 808 auth code). */
  credentialed: boolean;
  /**
   * Encodes the command with the connection's protocol session and writes it; rejects with
   * CommandEncodeError (protocols/types.ts) when the protocol cannot encode it, with another
   * error when the write fails (the connection is gone).
   */
  send(command: OutgoingCommand): Promise<void>;
  close(): void;
}

/** The device's current connection, if it has one (ConnectionRegistry). */
export interface Connections {
  get(imei: string): LiveConnection | undefined;
}

/**
 * Where the devices' connections are across a cluster's instances (issue 23;
 * modules/gateway/link/sessions.ts). Single mode has none: this process holds every
 * connection there is.
 */
export interface DeviceSessions {
  readonly instanceId: string;
  /** The live instance other than this one that holds the device's connection, else null. */
  holderElsewhere(imei: string): Promise<string | null>;
  /** Whether the instance is alive (this one, or a heartbeat within the last 10 s). */
  instanceLive(instanceId: string): boolean;
}

/** A device's answer to a command (a decoded "commandReply" message). */
export interface CommandReply {
  text: string;
  commandRef?: number;
  success?: boolean;
}

/** What the gateway asks of the commands module (CommandService). */
export interface CommandDesk {
  /** Matches a reply to the command in flight it answers. */
  onReply(conn: LiveConnection, reply: CommandReply): Promise<void>;
  /** A device (re)connected: its pending offline command goes out. */
  onConnected(conn: LiveConnection): Promise<void>;
  /** The pending command's text for an OsmAnd HTTP reply, marking it delivered. */
  takeHttpCommand(imei: string): Promise<string | null>;
}

/**
 * What the gateway hands the video module (modules/video): every general answer (it matches
 * the serials of its own requests) and the video events a terminal sends.
 */
export interface VideoDesk {
  onReply(conn: LiveConnection, reply: CommandReply): void;
  onVideo(conn: LiveConnection, event: VideoEvent): void;
}
