import type { OutgoingCommand } from "./outgoing.ts";
import type { TcpProtocol } from "./protocols/types.ts";

/** One live device connection, as the command transport sees it. */
export interface LiveConnection {
  imei: string;
  protocol: TcpProtocol["name"];
  remote: string;
  connectedAt: number;
  /**
   * Encodes the command with the connection's protocol session and writes it; rejects with
   * CommandEncodeError when the protocol cannot encode it, with another error when the write
   * fails (the connection is gone).
   */
  send(command: OutgoingCommand): Promise<void>;
  close(): void;
}

/** At most one live connection per device: a reconnect replaces (and closes) the old one. */
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
