/**
 * The main thread's record of device links: who each identified link is, and what a login,
 * a batch of data or a close means for the shared services (directory, group commit,
 * connection registry, event bus, commands). Links served on the main thread and links
 * served by an I/O worker go through the same table.
 */
import type { DeviceDirectory } from "../devices/directory.ts";
import type { Device } from "../devices/model.ts";
import type { EventBus } from "./bus.ts";
import type { ConnectionRegistry, LiveConnection } from "./connections.ts";
import type { Ingestor } from "./ingest.ts";
import type { LinkDevice, ProtocolName } from "./link_messages.ts";
import type { DeviceMessage } from "./protocols/types.ts";

export interface LinkServices {
  directory: DeviceDirectory;
  ingestor: Ingestor;
  connections: ConnectionRegistry;
  bus: EventBus;
  onCommandReply: (
    conn: LiveConnection,
    reply: Extract<DeviceMessage, { type: "commandReply" }>,
  ) => void;
  /** After the login acknowledgement (to deliver queued commands). */
  onIdentified: (conn: LiveConnection) => void;
  log: (line: string) => void;
}

/** How the table reaches a link's socket (directly, or through its worker). */
export type LinkIo = Pick<LiveConnection, "send" | "close">;

interface Link {
  device: Device;
  live: LiveConnection;
}

export class LinkTable {
  private readonly links = new Map<number, Link>();

  constructor(private readonly s: LinkServices) {}

  /** Identifies a link's device; null refuses it (unknown or disabled). */
  async login(
    id: number,
    deviceId: string,
    protocol: ProtocolName,
    remote: string,
    io: LinkIo,
  ): Promise<LinkDevice | null> {
    const device = await this.s.directory.resolve(deviceId);
    if (!device || !device.enabled) return null;
    const live: LiveConnection = {
      imei: device.imei,
      protocol,
      remote,
      connectedAt: Date.now(),
      send: io.send,
      close: io.close,
    };
    this.links.set(id, { device, live });
    this.s.connections.attach(live); // closes an older connection of the device
    this.s.bus.publish({
      type: "connection",
      imei: device.imei,
      userId: device.userId,
      connected: true,
    });
    return {
      imei: device.imei,
      timezoneOffsetMinutes: device.timezoneOffsetMinutes,
      mcType: device.mcType,
    };
  }

  ready(id: number): void {
    const link = this.links.get(id);
    if (link) this.s.onIdentified(link.live);
  }

  /** Stores a link's messages; command replies are matched once the data is committed. */
  async store(id: number, messages: DeviceMessage[]): Promise<void> {
    const link = this.links.get(id);
    if (!link) throw new Error("link closed");
    await this.s.ingestor.submit(link.device, messages);
    for (const m of messages) {
      if (m.type === "commandReply") this.s.onCommandReply(link.live, m);
    }
  }

  closed(id: number): void {
    const link = this.links.get(id);
    if (!link) return;
    this.links.delete(id);
    if (this.s.connections.detach(link.live)) {
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
