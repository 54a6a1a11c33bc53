import type { DeviceStatus, StoredPosition } from "../devices/model.ts";
import type { AlertRecord } from "../alerts/store.ts";

/** What live pages and other areas hear from the gateway, after it is stored. */
export type GatewayEvent =
  | { type: "position"; imei: string; userId: string; position: StoredPosition }
  | { type: "status"; imei: string; userId: string; status: DeviceStatus; previous: DeviceStatus }
  | { type: "alert"; imei: string; userId: string; alert: AlertRecord }
  | { type: "connection"; imei: string; userId: string; connected: boolean };

type Listener = (event: GatewayEvent) => void;

/** In-process publish/subscribe; a failing listener never disturbs the others or the gateway. */
export class EventBus {
  private listeners = new Set<Listener>();

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  publish(event: GatewayEvent): void {
    for (const l of this.listeners) {
      try {
        l(event);
      } catch (e) {
        console.error("event listener failed:", e);
      }
    }
  }
}
