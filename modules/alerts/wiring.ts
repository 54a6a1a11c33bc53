import type { EngineStateStore } from "./store_engine_state.ts";
import type { Config } from "../../lib/config.ts";
import type { Publisher } from "../../lib/events/bus.ts";
import type { AccessGuard } from "../accounts/access.ts";
import type { AccountLookup } from "../accounts/model.ts";
import type { RuleCommands } from "../commands/rule_commands.ts";
import type { DeviceDirectory } from "../devices/directory.ts";
import type { DeviceService } from "../devices/service.ts";
import type { GeofenceService } from "../geofences/service.ts";
import type { ZoneLookup } from "../geofences/model.ts";
import type { DriverTimeline } from "../fleet/model.ts";
import type { CodeStore } from "../notifications/codes.ts";
import type { Mailer } from "../notifications/mailer.ts";
import type { MessageStore } from "../notifications/messages.ts";
import type { WebhookSender } from "../notifications/webhook.ts";
import { AutoBroadcast } from "./broadcast.ts";
import { AlertDelivery, type DeliveryCounters } from "./delivery.ts";
import { log } from "../../lib/log.ts";
import { AlertEngine } from "./engine.ts";
import type { AlertRaised, FenceCrossed } from "./events.ts";
import { type AlertSms, type PushAllowance, PushGate } from "./push.ts";
import { AlertService } from "./service.ts";
import type { AlertSettingsStore } from "./settings.ts";
import type { BroadcastRecords } from "./settings_store.ts";
import type { AlertStore } from "./store.ts";
import type { RouteWatch } from "./types.ts";

const alertLog = log.area("alerts");

/** The alerts area's own services (its settings and store are built before: others read them). */
export interface AlertingServices {
  alertEngine: AlertEngine;
  alertDelivery: AlertDelivery;
  alertCenter: AlertService;
  autoBroadcast: AutoBroadcast;
}

/**
 * Builds the alerts area from the areas it uses. It subscribes nothing: the position
 * pipeline (app/position_pipeline.ts) hands the engine, delivery and auto broadcast their
 * events.
 */
export async function createAlerting(
  config: Pick<Config, "ALERT_ENGINE">,
  d: {
    access: AccessGuard;
    accountStore: AccountLookup;
    directory: DeviceDirectory;
    devices: DeviceService;
    alerts: AlertStore;
    alertSettings: AlertSettingsStore;
    /** Where auto broadcast rules are kept. */
    broadcastRules: BroadcastRecords;
    /** Where raised alerts and fence crossings are announced (the bus). */
    events: Publisher<AlertRaised | FenceCrossed>;
    geofences: GeofenceService;
    /** Zones by id (the geofence store through its port). */
    zones: ZoneLookup;
    ruleCommands: RuleCommands;
    mailer: Mailer;
    codes: CodeStore;
    webhooks: WebhookSender;
    /** Who drove a device when (fleet swipes): the alert centre shows the alert's driver. */
    drivers: DriverTimeline;
    messages: MessageStore;
    /** The free monthly push quota and credits (modules/credits). */
    pushes?: PushAllowance;
    /** Alert SMS (modules/credits, through SMS_URL). */
    sms?: AlertSms;
    addressOf: (lat: number, lng: number, userId: string) => string | undefined;
    /** Planned routes bound to devices (modules/fleet/paths_watch.ts). */
    routes?: RouteWatch;
    /** Cluster mode: the alert engine's per-device state in the store (issue 23). */
    engineState?: EngineStateStore;
    /** Alerts raised and delivered (app/metrics.ts). */
    metrics?: DeliveryCounters;
  },
): Promise<AlertingServices> {
  const alertEngine = new AlertEngine({
    bus: d.events,
    alerts: d.alerts,
    settings: d.alertSettings,
    geofences: d.geofences,
    directory: d.directory,
    // Fence commands go out as offline commands so a sleeping device gets them on wake-up.
    onFenceCommand: (imei, zone) => {
      const device = d.directory.get(imei);
      if (!device) return;
      d.ruleCommands.fire(
        { ownerId: zone.userId, label: `fence:${zone.name}` },
        device,
        zone.command,
      ).catch((e) => alertLog.error("fence command failed", e));
    },
    addressOf: d.addressOf,
    routes: d.routes,
    state: d.engineState,
  });
  const alertDelivery = new AlertDelivery({
    alerts: d.alerts,
    settings: d.alertSettings,
    gate: new PushGate(),
    mailer: d.mailer,
    webhooks: d.webhooks,
    accounts: d.accountStore,
    directory: d.directory,
    zones: d.zones,
    messages: d.messages,
    metrics: d.metrics,
    pushes: d.pushes,
    sms: d.sms,
    drivers: d.drivers,
  });
  if (config.ALERT_ENGINE === "on") alertEngine.start();
  // Auto broadcast rules count every stored alert (device alarms and engine alerts).
  const autoBroadcast = new AutoBroadcast(
    d.broadcastRules,
    (device, rule) =>
      d.ruleCommands.fire(
        { ownerId: rule.userId, label: `broadcast:${rule.name}` },
        device,
        rule.content,
      ).catch((e) => alertLog.error("auto broadcast failed", e)),
    (imei) => d.directory.get(imei),
  );
  await autoBroadcast.load();
  alertDelivery.start();
  const alertCenter = new AlertService({
    alerts: d.alerts,
    settings: d.alertSettings,
    access: d.access,
    accounts: d.accountStore,
    devices: d.devices,
    directory: d.directory,
    codes: d.codes,
    mailer: d.mailer,
    webhooks: d.webhooks,
    drivers: d.drivers,
  });
  return { alertEngine, alertDelivery, alertCenter, autoBroadcast };
}
