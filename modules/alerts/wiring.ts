import type { Config } from "../../lib/config.ts";
import type { AccessGuard } from "../accounts/access.ts";
import type { AccountStore } from "../accounts/store.ts";
import type { PasswordChecks } from "../auth/confirm.ts";
import { RuleCommands } from "../commands/rule_commands.ts";
import type { CommandService } from "../commands/service.ts";
import type { CommandStore } from "../commands/store.ts";
import type { DeviceDetail } from "../devices/detail.ts";
import type { DeviceDirectory } from "../devices/directory.ts";
import type { DeviceService } from "../devices/service.ts";
import type { EventBus } from "../gateway/bus.ts";
import { GeofenceService } from "../geofences/service.ts";
import { GeofenceStore } from "../geofences/store.ts";
import { CodeStore } from "../notifications/codes.ts";
import { Mailer } from "../notifications/mailer.ts";
import { MessageStore } from "../notifications/messages.ts";
import { PlatformNotices } from "../notifications/notices.ts";
import { WebhookSender } from "../notifications/webhook.ts";
import { AutoBroadcast } from "./broadcast.ts";
import { AlertDelivery } from "./delivery.ts";
import { AlertEngine } from "./engine.ts";
import { PushGate } from "./push.ts";
import { AlertService } from "./service.ts";
import { AlertSettingsStore } from "./settings.ts";
import type { AlertStore } from "./store.ts";

/** The services of geofences, alerts and notifications, as lib/services.ts exposes them. */
export interface AlertingServices {
  geofenceStore: GeofenceStore;
  geofences: GeofenceService;
  alertSettings: AlertSettingsStore;
  alertEngine: AlertEngine;
  alertDelivery: AlertDelivery;
  alertCenter: AlertService;
  autoBroadcast: AutoBroadcast;
  ruleCommands: RuleCommands;
  mailer: Mailer;
  codes: CodeStore;
  webhooks: WebhookSender;
  messages: MessageStore;
  notices: PlatformNotices;
}

export async function createAlerting(
  kv: Deno.Kv,
  config: Config,
  d: {
    access: AccessGuard;
    accountStore: AccountStore;
    directory: DeviceDirectory;
    devices: DeviceService;
    alerts: AlertStore;
    bus: EventBus;
    commands: CommandService;
    commandStore: CommandStore;
    passwordChecks: PasswordChecks;
  },
): Promise<AlertingServices> {
  // Fence and broadcast commands: the send policy when saved, the owner's rights when fired.
  const ruleCommands = new RuleCommands({
    accounts: d.accountStore,
    commands: d.commands,
    store: d.commandStore,
    passwordChecks: d.passwordChecks,
  });
  const geofenceStore = new GeofenceStore(kv);
  const geofences = new GeofenceService(geofenceStore, d.access, d.directory, ruleCommands);
  await geofences.load();
  const alertSettings = new AlertSettingsStore(
    kv,
    (imei) => d.directory.store.getDetail<DeviceDetail>(imei),
  );
  await alertSettings.load();
  const mailer = new Mailer(config);
  const codes = new CodeStore(kv);
  const webhooks = new WebhookSender(
    kv,
    config.WEBHOOK_RETRY_MS,
    config.WEBHOOK_ALLOW_PRIVATE === "on",
  );
  const messages = new MessageStore(kv);
  const alertEngine = new AlertEngine({
    bus: d.bus,
    alerts: d.alerts,
    settings: alertSettings,
    geofences,
    directory: d.directory,
    // Fence commands go out as offline commands so a sleeping device gets them on wake-up.
    onFenceCommand: (imei, zone) => {
      const device = d.directory.get(imei);
      if (!device) return;
      ruleCommands.fire({ ownerId: zone.userId, label: `fence:${zone.name}` }, device, zone.command)
        .catch((e) => console.error("fence command failed:", e));
    },
  });
  const alertDelivery = new AlertDelivery({
    bus: d.bus,
    alerts: d.alerts,
    settings: alertSettings,
    gate: new PushGate(),
    mailer,
    webhooks,
    accounts: d.accountStore,
    directory: d.directory,
    zones: geofenceStore,
    messages,
  });
  if (config.ALERT_ENGINE === "on") alertEngine.start();
  // Auto broadcast rules count every stored alert (device alarms and engine alerts).
  const autoBroadcast = new AutoBroadcast(
    kv,
    (device, rule) =>
      ruleCommands.fire(
        { ownerId: rule.userId, label: `broadcast:${rule.name}` },
        device,
        rule.content,
      ).catch((e) => console.error("auto broadcast failed:", e)),
    (imei) => d.directory.get(imei),
  );
  await autoBroadcast.load();
  d.bus.subscribe((ev) => {
    if (ev.type === "alert") autoBroadcast.onAlert(ev.alert);
  });
  alertDelivery.start();
  const notices = new PlatformNotices({
    messages,
    accounts: d.accountStore,
    directory: d.directory,
    deviceSettings: () => alertSettings.allOwn(),
  });
  d.bus.subscribe((ev) => {
    if (ev.type === "position") notices.countPosition(ev.imei);
  });
  const alertCenter = new AlertService({
    alerts: d.alerts,
    settings: alertSettings,
    access: d.access,
    accounts: d.accountStore,
    devices: d.devices,
    directory: d.directory,
    codes,
    mailer,
    webhooks,
  });
  return {
    geofenceStore,
    geofences,
    alertSettings,
    alertEngine,
    alertDelivery,
    alertCenter,
    autoBroadcast,
    ruleCommands,
    mailer,
    codes,
    webhooks,
    messages,
    notices,
  };
}
