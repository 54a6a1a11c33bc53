import type { Connections, LiveConnection } from "../types.ts";

export type { LiveConnection };

/**
 * At most one live connection per device: an attached connection replaces (and closes) the
 * old one. Whether a login may replace it is decided before (DeviceIdentity, LinkTable).
 */
export class ConnectionRegistry implements Connections {
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
