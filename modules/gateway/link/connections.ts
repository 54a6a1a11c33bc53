import type { OutgoingCommand } from "./outgoing.ts";
import type { TcpProtocol } from "../protocols/types.ts";

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
   * CommandEncodeError when the protocol cannot encode it, with another error when the write
   * fails (the connection is gone).
   */
  send(command: OutgoingCommand): Promise<void>;
  close(): void;
}

/**
 * At most one live connection per device: an attached connection replaces (and closes) the
 * old one. Whether a login may replace it is decided before (DeviceIdentity, LinkTable).
 */
export class ConnectionRegistry {
  private live = new Map<string, LiveConnection>();

  attach(conn: LiveConnection): void {
    const old = this.live.get(conn.imei);
    this.live.set(conn.imei, conn);
    if (old && old !== conn) old.close();
  }

  /** Removes the connection only if it is still the device's current one. */
  detach(conn: LiveConnection): boolean {
    if (this.live.get(conn.imei) !== conn) return false;
    this.live.delete(conn.imei);
    return true;
  }

  get(imei: string): LiveConnection | undefined {
    return this.live.get(imei);
  }

  get size(): number {
    return this.live.size;
  }

  closeAll(): void {
    for (const c of this.live.values()) c.close();
    this.live.clear();
  }
}
