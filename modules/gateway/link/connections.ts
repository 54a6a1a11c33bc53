import type { Connections, LiveConnection } from "../types.ts";
import type { CloseAnswer, CloseRequest, HeldElsewhere, SessionRegistry } from "./sessions.ts";

export type { LiveConnection };

/**
 * At most one live connection per device: an attached connection replaces (and closes) the
 * old one. Whether a login may replace it is decided before (DeviceIdentity, LinkTable).
 * In cluster mode the registry also records, through `sessions`, which instance holds each
 * device, and closes a connection here when the device logs in on another instance.
 */
export class ConnectionRegistry implements Connections {
  private live = new Map<string, LiveConnection>();

  constructor(readonly sessions: SessionRegistry | null = null) {
    sessions?.start((request) => this.closeForElsewhere(request));
  }

  attach(conn: LiveConnection): void {
    const old = this.live.get(conn.imei);
    this.live.set(conn.imei, conn);
    if (old && old !== conn) old.close();
    this.sessions?.claimed(conn.imei);
  }

  /** Removes the connection only if it is still the device's current one. */
  detach(conn: LiveConnection): boolean {
    if (this.live.get(conn.imei) !== conn) return false;
    this.live.delete(conn.imei);
    this.sessions?.released(conn.imei);
    return true;
  }

  get(imei: string): LiveConnection | undefined {
    return this.live.get(imei);
  }

  /**
   * Cluster mode: before a login here, the device's connection on another live instance is
   * closed, unless it keeps the device under the takeover rule (returned: refuse the login).
   * Null in single mode, with nothing to wait for.
   */
  admit(imei: string, takeoverMs: number): Promise<HeldElsewhere | null> | null {
    return this.sessions ? this.sessions.admit(imei, takeoverMs) : null;
  }

  /**
   * Cluster mode: the live instance elsewhere whose authenticated connection of the device was
   * heard within `takeoverMs` (a JT/T 808 registration here must not displace it). Null in
   * single mode.
   */
  credentialedElsewhere(imei: string, takeoverMs: number): Promise<HeldElsewhere | null> | null {
    return this.sessions ? this.sessions.credentialedElsewhere(imei, takeoverMs) : null;
  }

  /**
   * Closes the device's connection wherever it is: here, or (cluster mode) on the live
   * instance that holds it (e.g. a device just disabled).
   */
  async closeAnywhere(imei: string): Promise<void> {
    const conn = this.live.get(imei);
    if (conn) conn.close();
    else await this.sessions?.admit(imei, 0);
  }

  /** Another instance's login of a device connected here (the same rule as a login here). */
  private closeForElsewhere({ imei, takeoverMs, ask }: CloseRequest): CloseAnswer {
    const conn = this.live.get(imei);
    if (!conn) return { closed: true };
    const heardAgoMs = Date.now() - conn.heardAt;
    if (ask === "credentialed") {
      return {
        closed: false,
        heardAgoMs,
        credentialed: conn.credentialed && heardAgoMs < takeoverMs,
      };
    }
    if (takeoverMs > 0 && heardAgoMs < takeoverMs) return { closed: false, heardAgoMs };
    conn.close();
    return { closed: true };
  }

  get size(): number {
    return this.live.size;
  }

  closeAll(): void {
    for (const c of this.live.values()) c.close();
    this.live.clear();
  }

  /** Cluster mode: this instance leaves (its session records stop counting at once). */
  async leave(): Promise<void> {
    await this.sessions?.stop();
  }
}
