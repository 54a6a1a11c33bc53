/**
 * The main thread's record of device links: who each identified link is, and what a login,
 * a batch of data or a close means for the shared services (directory, group commit,
 * connection registry, event bus, commands). Links served on the main thread and links
 * served by an I/O worker go through the same table.
 */
import type { DeviceDirectory } from "../../devices/directory.ts";
import type { Device } from "../../devices/model.ts";
import type { Publisher } from "../../../lib/events/bus.ts";
import type { GatewayEvent } from "../events.ts";
import type { ConnectionRegistry, LiveConnection } from "./connections.ts";
import type { Ingestor } from "../ingest/ingest.ts";
import type { DeviceIdentity } from "./device_identity.ts";
import type { HeldElsewhere } from "./sessions.ts";
import type { LinkDevice, LoginAnswer, ProtocolName } from "./link_messages.ts";
import type { DeviceMessage } from "../protocols/types.ts";
import type { LogLevel } from "../../../lib/log.ts";
import type { VideoDesk } from "../types.ts";

export interface LinkServices {
  directory: DeviceDirectory;
  ingestor: Ingestor;
  connections: ConnectionRegistry;
  /** Credentials and the takeover rule. */
  identity: DeviceIdentity;
  bus: Publisher<GatewayEvent>;
  onCommandReply: (
    conn: LiveConnection,
    reply: Extract<DeviceMessage, { type: "commandReply" }>,
  ) => void;
  /** Video answers and alarm media (JT/T 1078, T/JSATL12), and every command reply too. */
  video?: VideoDesk;
  /** After the login acknowledgement (to deliver queued commands). */
  onIdentified: (conn: LiveConnection) => void;
  /** The gateway's log (lib/log.ts levels; info when none is given). */
  log: (line: string, level?: LogLevel) => void;
}

/** How the table reaches a link's socket (directly, or through its worker). */
export type LinkIo = Pick<LiveConnection, "send" | "close">;

interface Link {
  device: Device;
  live: LiveConnection;
  /** Registered in the connection registry: the link may report (not awaiting a credential). */
  attached: boolean;
}

export class LinkTable {
  private readonly links = new Map<number, Link>();

  constructor(private readonly s: LinkServices) {}

  /**
   * Identifies a link's device. A protocol with credentials (strict JT/T 808) leaves the link
   * awaiting them; without, the link is attached unless the device's connection is active.
   */
  async login(
    id: number,
    deviceId: string,
    protocol: ProtocolName,
    remote: string,
    io: LinkIo,
  ): Promise<LoginAnswer> {
    const device = await this.s.directory.resolve(deviceId);
    if (!device || !device.enabled) return null;
    const now = Date.now();
    const live: LiveConnection = {
      imei: device.imei,
      protocol,
      remote,
      connectedAt: now,
      heardAt: now,
      credentialed: false,
      send: io.send,
      close: io.close,
    };
    const link: Link = { device, live, attached: false };
    if (this.s.identity.needsCredential(protocol)) {
      this.links.set(id, link);
      return { ...linkDevice(device), awaitingCredential: true };
    }
    const current = this.s.connections.get(device.imei);
    if (this.s.identity.holds(current, now)) {
      this.refuseSecondLogin(live, current, now);
      return "busy";
    }
    // Cluster mode: held by another live instance, the same rule applies there.
    const elsewhere = this.s.connections.admit(device.imei, this.s.identity.takeoverMs);
    const heldBy = elsewhere && await elsewhere;
    if (heldBy) {
      this.refuseHeldElsewhere(live, heldBy);
      return "busy";
    }
    this.links.set(id, link);
    this.attach(link);
    return linkDevice(device);
  }

  /** A second login without credentials while the device's connection is active: logged. */
  private refuseSecondLogin(live: LiveConnection, current: LiveConnection, now: number) {
    this.s.log(
      `[${live.protocol}] ${live.remote}: second login of ${live.imei} refused: its connection ` +
        `from ${current.remote} was heard ${Math.round((now - current.heardAt) / 1000)} s ago; ` +
        "closing",
      "warn",
    );
  }

  /** The same, when the active connection is on another instance (cluster mode). */
  private refuseHeldElsewhere(live: LiveConnection, heldBy: HeldElsewhere) {
    this.s.log(
      `[${live.protocol}] ${live.remote}: second login of ${live.imei} refused: its connection ` +
        `on instance ${heldBy.instanceId} was heard ${Math.round(heldBy.heardAgoMs / 1000)} s ` +
        "ago; closing",
      "warn",
    );
  }

  /** The link becomes the device's connection (an older one is closed). */
  private attach(link: Link): void {
    link.attached = true;
    this.s.log(
      `[${link.live.protocol}] ${link.live.remote}: device ${link.device.imei} logged in`,
      "debug",
    );
    this.s.connections.attach(link.live);
    this.s.bus.publish({
      type: "connection",
      imei: link.device.imei,
      userId: link.device.userId,
      connected: true,
    });
  }

  /**
   * A registration (JT/T 808 0x0100) on a logged-in link: a fresh auth code (strict), or the
   * terminal number it logged in with (lenient). Null refuses it: the device's authenticated
   * connection is active elsewhere (a registration proves nothing, so it must not displace it).
   */
  async register(id: number, terminal: string): Promise<string | null> {
    const link = this.links.get(id);
    if (!link) return null;
    if (!this.s.identity.needsCredential(link.live.protocol)) return terminal;
    const current = this.s.connections.get(link.device.imei);
    if (current !== link.live && current?.credentialed && this.s.identity.holds(current)) {
      this.s.log(
        `[${link.live.protocol}] ${link.live.remote}: registration of ${link.device.imei} ` +
          `refused: its authenticated connection from ${current.remote} is active`,
        "warn",
      );
      return null;
    }
    // Cluster mode: the same rule against an authenticated connection on another instance.
    const elsewhere = this.s.connections.credentialedElsewhere(
      link.device.imei,
      this.s.identity.takeoverMs,
    );
    const heldBy = elsewhere && await elsewhere;
    if (heldBy) {
      this.s.log(
        `[${link.live.protocol}] ${link.live.remote}: registration of ${link.device.imei} ` +
          `refused: its authenticated connection on instance ${heldBy.instanceId} is active`,
        "warn",
      );
      return null;
    }
    if (this.links.get(id) !== link) return null;
    const code = await this.s.identity.issue(link.device.imei, link.live.remote);
    this.s.log(
      `[${link.live.protocol}] ${link.live.remote}: ${link.device.imei} registered; new auth code issued`,
    );
    return code;
  }

  /**
   * An authentication (JT/T 808 0x0102): with the device's current code the link is attached
   * (replacing any older connection: the code is the proof); otherwise refused (null), and the
   * terminal is expected to register again.
   */
  async authenticate(id: number, code: string): Promise<LinkDevice | null> {
    const link = this.links.get(id);
    if (!link) return null;
    if (!this.s.identity.needsCredential(link.live.protocol)) return linkDevice(link.device);
    if (!(await this.s.identity.verify(link.device, code))) {
      this.s.log(
        `[${link.live.protocol}] ${link.live.remote}: authentication of ${link.device.imei} ` +
          "refused (wrong auth code)",
        "warn",
      );
      return null;
    }
    // The link may have closed while the code was read.
    if (this.links.get(id) !== link) return null;
    // Cluster mode: the credential wins over a connection on another instance too.
    await this.s.connections.admit(link.device.imei, 0);
    if (this.links.get(id) !== link) return null;
    link.live.credentialed = true;
    link.live.heardAt = Date.now();
    if (!link.attached) this.attach(link);
    return linkDevice(link.device);
  }

  ready(id: number): void {
    const link = this.links.get(id);
    if (link?.attached) this.s.onIdentified(link.live);
  }

  /** Stores a link's messages; command replies are matched once the data is committed. */
  async store(id: number, messages: DeviceMessage[]): Promise<void> {
    const link = this.links.get(id);
    if (!link?.attached) throw new Error("link closed");
    link.live.heardAt = Date.now();
    // The directory's current record: a device transferred while connected is stored, alerted
    // and shown live under its new owner at once, not after it reconnects.
    await this.s.ingestor.submit(this.s.directory.get(link.device.imei) ?? link.device, messages);
    for (const m of messages) {
      if (m.type === "commandReply") {
        this.s.onCommandReply(link.live, m);
        this.s.video?.onReply(link.live, m);
      } else if (m.type === "video") this.s.video?.onVideo(link.live, m.event);
    }
  }

  closed(id: number): void {
    const link = this.links.get(id);
    if (!link) return;
    this.links.delete(id);
    if (link.attached && this.s.connections.detach(link.live)) {
      this.s.bus.publish({
        type: "connection",
        imei: link.device.imei,
        userId: link.device.userId,
        connected: false,
      });
    }
  }

  /** Every link closed at once (its worker stopped). */
  closeAll(): void {
    for (const id of [...this.links.keys()]) this.closed(id);
  }
}

function linkDevice(device: Device): LinkDevice {
  return {
    imei: device.imei,
    timezoneOffsetMinutes: device.timezoneOffsetMinutes,
    mcType: device.mcType,
  };
}
