/**
 * Delivers domain events to the push endpoints of the device owner's account and every
 * account above it: alarms, positions (batched per endpoint), online/offline and command
 * results, in the Tracksolid form or as our signed JSON webhook. Deliveries, retries and
 * the delivery log are the WebhookSender's (modules/notifications/webhook.ts).
 */
import type { Handler } from "../../lib/events/bus.ts";
import type { AccountLookup } from "../accounts/model.ts";
import type { AlertRaised } from "../alerts/events.ts";
import type { CommandSettled } from "../commands/events.ts";
import type { DeviceDirectory } from "../devices/directory.ts";
import type { DeviceConnection, PositionsCommitted } from "../gateway/events.ts";
import type { WebhookSender } from "../notifications/webhook.ts";
import alertNames from "../../locales/en/alerts.json" with { type: "json" };
import { formatOpenTime, POS_TYPE_NAMES, round } from "./methods/common.ts";
import { MSG_TYPES, type PushEndpoint, type PushKind } from "./push_model.ts";
import { PUSH_EVENT_PREFIX, type PushEndpoints } from "./push_service.ts";

/** Positions wait at most this long, or until this many, before one push carries them. */
export const POSITION_BATCH_MS = 2_000;
export const POSITION_BATCH_MAX = 500;
/** An account's ancestors are remembered this long (accounts seldom move). */
const CHAIN_TTL_MS = 60_000;
const TYPE_NAMES: Record<string, string> = alertNames.type;

export interface PushDeliveryDeps {
  endpoints: Pick<PushEndpoints, "receiving" | "anyReceiving">;
  accounts: Pick<AccountLookup, "get">;
  directory: Pick<DeviceDirectory, "get">;
  webhooks: Pick<WebhookSender, "deliver">;
}

export class PushDelivery {
  private chains = new Map<string, { ids: string[]; at: number }>();
  private batches = new Map<string, { endpoint: PushEndpoint; rows: unknown[] }>();
  private flushTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly d: PushDeliveryDeps) {}

  /** The account and its ancestors: whose endpoints hear about its devices. */
  private async chain(userId: string): Promise<string[]> {
    const hit = this.chains.get(userId);
    if (hit && Date.now() - hit.at < CHAIN_TTL_MS) return hit.ids;
    const a = await this.d.accounts.get(userId);
    const ids = a ? [a.id, ...a.fullParentId.split(",").filter(Boolean)] : [];
    this.chains.set(userId, { ids, at: Date.now() });
    return ids;
  }

  private send(e: PushEndpoint, kind: PushKind, data: unknown): void {
    const event = `${PUSH_EVENT_PREFIX}${kind}`;
    const form = e.format === "tracksolid"
      ? { msgType: MSG_TYPES[kind], data: JSON.stringify(data), token: e.secret }
      : undefined;
    void this.d.webhooks.deliver(e.userId, e.url, e.secret, event, data, form);
  }

  private async fanOut(userId: string, kind: PushKind, data: unknown): Promise<void> {
    if (!this.d.endpoints.anyReceiving(kind)) return;
    for (const e of this.d.endpoints.receiving(await this.chain(userId), kind)) {
      this.send(e, kind, data);
    }
  }

  onAlert: Handler<AlertRaised> = (ev) => {
    const a = ev.alert;
    return this.fanOut(ev.userId, "alarm", {
      imei: a.imei,
      deviceName: this.d.directory.get(a.imei)?.deviceName ?? "",
      alarmType: a.type,
      alarmName: TYPE_NAMES[a.type] ?? a.type,
      alarmTime: formatOpenTime(a.time),
      lat: a.lat,
      lng: a.lng,
      speed: a.speed,
      address: a.address ?? "",
      fenceName: a.fenceName ?? "",
    });
  };

  onConnection: Handler<DeviceConnection> = (ev) =>
    this.fanOut(ev.userId, "status", {
      imei: ev.imei,
      status: ev.connected ? "online" : "offline",
      time: formatOpenTime(Date.now()),
    });

  onCommand: Handler<CommandSettled> = (ev) => {
    const c = ev.command;
    return this.fanOut(c.userId, "command", {
      id: c.id,
      imei: c.imei,
      instId: c.name ?? "text",
      content: c.content,
      status: c.status,
      reply: c.reply ?? "",
      replyTime: formatOpenTime(c.repliedAt),
    });
  };

  /** Positions join each receiving endpoint's batch; a full batch goes at once. */
  onCommitted: Handler<PositionsCommitted> = async (ev) => {
    if (!this.d.endpoints.anyReceiving("position")) return;
    const targets = this.d.endpoints.receiving(await this.chain(ev.userId), "position");
    if (!targets.length) return;
    const rows = ev.points.filter((p) => p.valid).map((p) => ({
      imei: ev.imei,
      gpsTime: formatOpenTime(p.time),
      lat: round(p.lat, 6),
      lng: round(p.lng, 6),
      gpsSpeed: Math.round(p.speed),
      direction: Math.round(p.course),
      posType: POS_TYPE_NAMES[p.posType],
      satellite: p.satellites,
      accStatus: p.acc === null ? null : p.acc ? 1 : 0,
    }));
    for (const e of targets) {
      const batch = this.batches.get(e.id) ?? { endpoint: e, rows: [] };
      batch.rows.push(...rows);
      this.batches.set(e.id, batch);
      if (batch.rows.length >= POSITION_BATCH_MAX) this.flushOne(e.id);
    }
    this.scheduleFlush();
  };

  private scheduleFlush(): void {
    if (this.flushTimer !== null || !this.batches.size) return;
    const timer = setTimeout(() => {
      this.flushTimer = null;
      this.flush();
    }, POSITION_BATCH_MS);
    Deno.unrefTimer(timer);
    this.flushTimer = timer;
  }

  private flushOne(id: string): void {
    const b = this.batches.get(id);
    this.batches.delete(id);
    if (b?.rows.length) this.send(b.endpoint, "position", b.rows);
  }

  /** Sends every waiting batch (the timer; shutdown). */
  flush(): void {
    for (const id of [...this.batches.keys()]) this.flushOne(id);
  }
}
