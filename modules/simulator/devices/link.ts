/** The device side of a TCP protocol, as the simulator drives it. */
import type { DeviceFix } from "../fix.ts";

export type TcpProtocolName = "gt06" | "jt808" | "h02";

export type LinkEvent =
  /** The server accepted the device (login / authentication acknowledged). */
  | { type: "ready" }
  /** The server acknowledged a frame. */
  | { type: "ack" }
  /** A server command; `reply` is what the device writes back. */
  | { type: "command"; text: string; reply: Uint8Array; replyText: string }
  /** Something the device must write as part of its login dialogue. */
  | { type: "send"; frame: Uint8Array };

export interface DeviceLink {
  readonly protocol: TcpProtocolName;
  /** Frames written right after connecting (login, registration…). */
  hello(fix: DeviceFix): Uint8Array[];
  /** One position report; `archived` marks a report stored while offline. */
  position(fix: DeviceFix, archived?: boolean): Uint8Array;
  /** Reports stored while offline, uploaded after a reconnection. */
  backlog(fixes: DeviceFix[]): Uint8Array[];
  heartbeat(fix: DeviceFix): Uint8Array;
  /** A report carrying `fix.alarm`. */
  alarm(fix: DeviceFix): Uint8Array;
  /**
   * A driver identity report (an RFID / IC card swiped in when the ignition turns on, out when
   * it turns off); protocols without one leave it out.
   */
  driverSwipe?(fix: DeviceFix, inserted: boolean): Uint8Array;
  /** A BLE gateway's report of the Bluetooth tags in range (the driver's badge while driving). */
  badges?(fix: DeviceFix): Uint8Array;
  /** Feeds bytes from the server; `current` gives the device state for command answers. */
  receive(chunk: Uint8Array, current: () => DeviceFix): LinkEvent[];
}
