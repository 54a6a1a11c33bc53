import type { DeviceDirectory } from "../devices/directory.ts";
import { deriveStatus } from "../devices/model.ts";
import type { GatewayEvent } from "../gateway/events.ts";
import { STATUS_INDEX } from "./objects.ts";
import { log } from "../../lib/log.ts";
import { within } from "../../lib/within.ts";
import type { LiveRelay, LiveScope } from "./live_relay.ts";

const monitorLog = log.area("monitor");

/** How long a new stream waits for its cluster subscription before it says "connected". */
const READY_WAIT_MS = 3000;

export interface StreamOptions {
  /** Events are coalesced per device and written at most this often. */
  flushMs?: number;
  /** A comment line keeps proxies from closing an idle stream. */
  heartbeatMs?: number;
  /** Alerts waiting for a slow client beyond this are dropped (oldest first). */
  maxAlerts?: number;
}

/** Decides per event whether this client may see it; refreshed by the caller when needed. */
export type EventFilter = (ev: GatewayEvent) => boolean;

/**
 * Server-sent events of the gateway's events, one stream per client. The position pipeline
 * (app/position_pipeline.ts) hands every event to `handle`, which passes it to each client.
 *
 * Memory per client is bounded: positions are coalesced by device (the latest wins), so a
 * client that reads slowly holds at most one pending line per visible device plus
 * `maxAlerts` alerts, never a growing queue. A flush is skipped while the client's stream
 * buffer is full, which is what makes the coalescing effective.
 *
 * Cluster mode (live_relay.ts): events this instance processed are also published for the
 * other instances, and a stream opened with a `scope` hears the other instances' events of
 * that scope through the relay (one subscription per viewer); the filter still decides.
 *
 * Wire format: `event: pos` data `[[imei, lat, lng, speedKmh, course, timeMs, statusIdx], ...]`,
 * `event: status` data `[[imei, statusIdx], ...]`, `event: alert` data an AlertRecord.
 */
export class LiveStreams {
  private readonly flushMs: number;
  private readonly heartbeatMs: number;
  private readonly maxAlerts: number;
  /** Open client streams, for tests and the health of the process. */
  open = 0;
  /** Ends every stream at shutdown: a graceful server shutdown waits for open responses. */
  private stopping = new AbortController();
  /** Each open client's event sink. */
  private readonly clients = new Set<(ev: GatewayEvent) => void>();
  /** Each open client's filter renewal (run early when accounts move). */
  private readonly refreshers = new Set<() => Promise<void>>();

  /**
   * `relay` (cluster mode only) carries events between instances: this instance's events are
   * published for the others' clients, and each stream with a scope hears the others' events.
   */
  constructor(
    private readonly directory: DeviceDirectory,
    private readonly offlineMs: number,
    opts: StreamOptions = {},
    private readonly relay: LiveRelay | null = null,
  ) {
    this.flushMs = opts.flushMs ?? 250;
    this.heartbeatMs = opts.heartbeatMs ?? 15_000;
    this.maxAlerts = opts.maxAlerts ?? 100;
    if (relay) {
      const local = this.handle;
      this.handle = (ev) => {
        local(ev);
        if (ev.type === "position" || ev.type === "status" || ev.type === "alert") {
          relay.publish(ev);
        }
      };
    }
  }

  /** Renews every stream's filter now (accounts moved: subtrees changed); resolves when done. */
  async refreshFilters(): Promise<void> {
    await Promise.all([...this.refreshers].map((refresh) => refresh()));
  }

  /** The live stream's handler in the position pipeline: every client hears the event. */
  handle = (ev: GatewayEvent): void => {
    for (const client of this.clients) {
      try {
        client(ev);
      } catch (e) {
        monitorLog.error("live stream client failed", e);
      }
    }
  };

  closeAll(): void {
    this.stopping.abort();
    this.stopping = new AbortController();
  }

  /**
   * A text/event-stream body; `refresh` is called every `refreshMs` to renew the filter.
   * `scope` says whose events other instances must send (cluster mode; the filter still decides).
   */
  stream(
    filter: EventFilter,
    opts: {
      refresh?: () => Promise<EventFilter>;
      refreshMs?: number;
      signal?: AbortSignal;
      scope?: LiveScope;
    } = {},
  ): ReadableStream<Uint8Array> {
    const encoder = new TextEncoder();
    const positions = new Map<string, (string | number)[]>();
    const statuses = new Map<string, number>();
    let alerts: unknown[] = [];
    let allow = filter;
    let lastWrite = Date.now();
    const timers: ReturnType<typeof setInterval>[] = [];
    let unsubscribe = () => {};
    let closed = false;
    const close = () => {
      if (closed) return;
      closed = true;
      this.open--;
      unsubscribe();
      timers.forEach(clearInterval);
    };
    return new ReadableStream<Uint8Array>({
      start: (ctrl) => {
        this.open++;
        const client = (ev: GatewayEvent) => {
          if (!allow(ev)) return;
          if (ev.type === "position") {
            const p = ev.position;
            positions.set(ev.imei, [ev.imei, p.lat, p.lng, p.speed, p.course, p.time, -1]);
          } else if (ev.type === "status") {
            statuses.set(ev.imei, STATUS_INDEX.get(ev.status)!);
          } else if (ev.type === "alert") {
            alerts.push(ev.alert);
            if (alerts.length > this.maxAlerts) alerts = alerts.slice(-this.maxAlerts);
          }
        };
        this.clients.add(client);
        const relayed = this.relay && opts.scope ? this.relay.attach(opts.scope, client) : null;
        const renew = async () => {
          if (!opts.refresh) return;
          allow = await opts.refresh().catch(() => () => false);
        };
        if (opts.refresh) this.refreshers.add(renew);
        unsubscribe = () => {
          this.clients.delete(client);
          this.refreshers.delete(renew);
          relayed?.detach();
        };
        const send = (text: string) => {
          ctrl.enqueue(encoder.encode(text));
          lastWrite = Date.now();
        };
        send(`retry: 3000\n`);
        // "connected" once other instances' events reach this stream too (at once on one
        // instance); a messaging server that doesn't answer doesn't hold the stream back long.
        void within(relayed?.ready ?? Promise.resolve(), READY_WAIT_MS).then(() => {
          if (!closed) send(`: connected\n\n`);
        });
        timers.push(setInterval(() => {
          if (closed) return;
          // Backpressure: the client has not read what we sent; keep coalescing.
          if ((ctrl.desiredSize ?? 1) <= 0) return;
          try {
            const now = Date.now();
            if (positions.size) {
              const rows = [...positions.values()];
              positions.clear();
              for (const r of rows) {
                const st = deriveStatus(
                  this.directory.state(r[0] as string) ?? null,
                  now,
                  this.offlineMs,
                );
                r[6] = STATUS_INDEX.get(st)!;
              }
              send(`event: pos\ndata: ${JSON.stringify(rows)}\n\n`);
            }
            if (statuses.size) {
              send(`event: status\ndata: ${JSON.stringify([...statuses])}\n\n`);
              statuses.clear();
            }
            for (const a of alerts) send(`event: alert\ndata: ${JSON.stringify(a)}\n\n`);
            alerts = [];
            if (now - lastWrite >= this.heartbeatMs) send(`: hb ${now}\n\n`);
          } catch {
            close(); // the client went away between the check and the write
          }
        }, this.flushMs));
        if (opts.refresh) timers.push(setInterval(renew, opts.refreshMs ?? 15_000));
        const end = () => {
          close();
          try {
            ctrl.close();
          } catch { /* already closed */ }
        };
        opts.signal?.addEventListener("abort", end);
        this.stopping.signal.addEventListener("abort", end);
      },
      cancel: close,
    }, new CountQueuingStrategy({ highWaterMark: 8 }));
  }
}

export function sseResponse(body: ReadableStream<Uint8Array>): Response {
  return new Response(body, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      "x-accel-buffering": "no",
    },
  });
}
