/** The browser side of the live stream (SSE): parsed batches, automatic reconnection. */
import type { AlertRecord } from "../../modules/alerts/store.ts";

/** [imei, lat, lng, speedKmh, course, timeMs, statusIdx] */
export type LivePosition = [string, number, number, number, number, number, number];

export interface LiveHandlers {
  positions?(rows: LivePosition[]): void;
  statuses?(rows: [string, number][]): void;
  alert?(a: AlertRecord): void;
  /** true when connected, false while the browser retries. */
  connection?(up: boolean): void;
}

export function openLive(url: string, h: LiveHandlers): () => void {
  const es = new EventSource(url, { withCredentials: true });
  es.addEventListener("open", () => h.connection?.(true));
  es.addEventListener("error", () => h.connection?.(false));
  es.addEventListener("pos", (e) => h.positions?.(JSON.parse((e as MessageEvent).data)));
  es.addEventListener("status", (e) => h.statuses?.(JSON.parse((e as MessageEvent).data)));
  es.addEventListener("alert", (e) => h.alert?.(JSON.parse((e as MessageEvent).data)));
  return () => es.close();
}
