/**
 * The composition root: builds every module in dependency order, handing each constructor
 * only the services it uses, then connects the position pipeline (app/position_pipeline.ts)
 * and the reactions to domain events (app/events.ts). Nothing is attached to a service after
 * it is built. `lib/` never imports a module; this file and app/app.ts are where they meet.
 */
import type { Config } from "../lib/config.ts";
import { AccessGuard } from "../modules/accounts/access.ts";
import { AccountService } from "../modules/accounts/service.ts";
import { AccountStore } from "../modules/accounts/store.ts";
import { AlertStore } from "../modules/alerts/store.ts";
import { AlertSettingsStore } from "../modules/alerts/settings.ts";
import { AlertSettingsRecords, BroadcastRecords } from "../modules/alerts/settings_store.ts";
import { type AlertingServices, createAlerting } from "../modules/alerts/wiring.ts";
import { AuthService } from "../modules/auth/service.ts";
import { AuthStore } from "../modules/auth/store.ts";
import { PasswordChecks } from "../modules/auth/confirm.ts";
import { CaptchaService } from "../modules/auth/captcha.ts";
import { CaptchaStore } from "../modules/auth/captcha_store.ts";
import { CommandService } from "../modules/commands/service.ts";
import { CommandStore, TemplateStore } from "../modules/commands/store.ts";
import { BatchSender } from "../modules/commands/batch.ts";
import { RuleCommands } from "../modules/commands/rule_commands.ts";
import { OperationLog } from "../modules/commands/oplog.ts";
import { CommandRequests } from "../modules/commands/requests.ts";
import { CommandTemplates } from "../modules/commands/templates.ts";
import { WorkModeRequests } from "../modules/workmodes/requests.ts";
import { WorkModeService } from "../modules/workmodes/service.ts";
import { WorkModeStore } from "../modules/workmodes/store.ts";
import type { DeviceDetail } from "../modules/devices/detail.ts";
import { DeviceDirectory } from "../modules/devices/directory.ts";
import { DeviceService } from "../modules/devices/service.ts";
import { DeviceStore } from "../modules/devices/store.ts";
import { GroupService } from "../modules/devices/groups.ts";
import { DeviceOperations } from "../modules/devices/operations.ts";
import { DeviceTransfer } from "../modules/devices/transfer.ts";
import { DeviceFiles } from "../modules/devices/files.ts";
import { DeviceRenewal } from "../modules/devices/renewal.ts";
import { WalletService } from "../modules/wallet/service.ts";
import { WalletStore } from "../modules/wallet/store.ts";
import { DomainStore } from "../modules/domains/store.ts";
import { DomainImages } from "../modules/domains/images.ts";
import { DomainService } from "../modules/domains/service.ts";
import { Playback } from "../modules/positions/playback.ts";
import { ConnectionRegistry } from "../modules/gateway/link/connections.ts";
import { Ingestor } from "../modules/gateway/ingest/ingest.ts";
import { GatewayStore } from "../modules/gateway/link/store.ts";
import { GeofenceService } from "../modules/geofences/service.ts";
import { GeofenceStore } from "../modules/geofences/store.ts";
import { PositionStore } from "../modules/positions/store.ts";
import { SystemStore } from "../modules/system/store.ts";
import { MonitorService } from "../modules/monitor/service.ts";
import { MonitorStore } from "../modules/monitor/store.ts";
import { CodeStore } from "../modules/notifications/codes.ts";
import { Mailer } from "../modules/notifications/mailer.ts";
import { MessageStore } from "../modules/notifications/messages.ts";
import { PlatformNotices } from "../modules/notifications/notices.ts";
import { CodeRecords, MessageRecords } from "../modules/notifications/store.ts";
import { WebhookSender } from "../modules/notifications/webhook.ts";
import { WebhookLogStore } from "../modules/notifications/webhook_store.ts";
import { Geocoder } from "../modules/geocoder/service.ts";
import { GeocoderStore } from "../modules/geocoder/store.ts";
import { StreetGeocoder } from "../modules/geocoder/street.ts";
import { AlertAddresses } from "../modules/geocoder/alert_addresses.ts";
import { type AppBus, connectReactions, createBus } from "./events.ts";
import { connectPipeline, positionPipeline } from "./position_pipeline.ts";
import { type AppMetrics, createMetrics } from "./metrics.ts";

/**
 * Every service of the process by name. Route registrations, jobs and the gateway each
 * declare the few they use (their own deps types); this whole set goes only to the app,
 * the page registrars and the tests.
 */
export interface Services extends AlertingServices {
  /** The opened store (tests read it; modules get their own store objects). */
  kv: Deno.Kv;
  config: Config;
  /** What GET /health reads. */
  systemStore: SystemStore;
  /** The domain event bus (app/events.ts lists its events). */
  bus: AppBus;
  /** The metrics registry and each area's series (GET /metrics, app/metrics.ts). */
  metrics: AppMetrics;
  // accounts and sign-in
  accountStore: AccountStore;
  accounts: AccountService;
  access: AccessGuard;
  authStore: AuthStore;
  auth: AuthService;
  /** Counted checks of a signed-in account's password (change password, command password). */
  passwordChecks: PasswordChecks;
  captcha: CaptchaService;
  /** The host configurations (pages read them; tests read the image records). */
  domains: DomainStore;
  /** White-label changes and images (administrator only). */
  domainService: DomainService;
  // devices and wallet
  directory: DeviceDirectory;
  /** The device records (tests read them; the directory writes through to it). */
  deviceStore: DeviceStore;
  devices: DeviceService;
  deviceGroups: GroupService;
  deviceOps: DeviceOperations;
  deviceTransfer: DeviceTransfer;
  deviceFiles: DeviceFiles;
  deviceRenewal: DeviceRenewal;
  wallet: WalletService;
  // gateway, positions, commands, work modes
  positions: PositionStore;
  /** Tracks for the playback page (range rules, visibility). */
  playback: Playback;
  ingestor: Ingestor;
  connections: ConnectionRegistry;
  gatewayStore: GatewayStore;
  commandStore: CommandStore;
  commands: CommandService;
  batches: BatchSender;
  /** The command API's requests (permissions, passwords, the operation log). */
  commandRequests: CommandRequests;
  commandTemplates: CommandTemplates;
  ruleCommands: RuleCommands;
  workModeStore: WorkModeStore;
  workModes: WorkModeService;
  workModeRequests: WorkModeRequests;
  // geofences, alerts, notifications
  geofenceStore: GeofenceStore;
  geofences: GeofenceService;
  alerts: AlertStore;
  alertSettings: AlertSettingsStore;
  mailer: Mailer;
  codes: CodeStore;
  webhooks: WebhookSender;
  messages: MessageStore;
  notices: PlatformNotices;
  // monitor and addresses
  monitor: MonitorService;
  /** Addresses of points (landmarks, GEOCODER_URL, the embedded place dataset). */
  geocoder: Geocoder;
  alertAddresses: AlertAddresses;
}

export async function compose(kv: Deno.Kv, config: Config): Promise<Services> {
  const offlineMs = config.OFFLINE_MINUTES * 60_000;
  const bus = createBus();
  const metrics = createMetrics();

  // Accounts and sign-in (the account service comes after the areas that guard deletions).
  const accountStore = new AccountStore(kv);
  const access = new AccessGuard(accountStore);
  const authStore = new AuthStore(kv);
  const passwordChecks = new PasswordChecks(authStore);
  const captcha = new CaptchaService(new CaptchaStore(kv));
  const auth = new AuthService(authStore, accountStore, captcha, config);

  // Devices and the wallet.
  const deviceStore = new DeviceStore(kv);
  const directory = new DeviceDirectory(deviceStore);
  await directory.load();
  const devices = new DeviceService(directory, deviceStore, accountStore, access, offlineMs, bus);
  const wallet = new WalletService(new WalletStore(kv), accountStore, access, bus);
  const accounts = new AccountService(accountStore, access, passwordChecks, {
    sessions: auth,
    deletionGuards: [
      async (a) => (await deviceStore.hasDevices(a.id) ? "devicesStillBound" : null),
      // The wallet's ledger is what counts, whatever copy an account record carries.
      (a) => wallet.deletionRefusal(a),
    ],
    events: bus,
  });

  const domains = new DomainStore(kv);

  // Gateway, positions and commands.
  const positions = new PositionStore(kv);
  const alerts = new AlertStore(kv);
  const connections = new ConnectionRegistry();
  const gatewayStore = new GatewayStore(kv);
  const commandStore = new CommandStore(kv);
  const commands = new CommandService(commandStore, connections, undefined, bus);
  const batches = new BatchSender(commandStore, commands);
  const workModeStore = new WorkModeStore(kv);
  const workModes = new WorkModeService(workModeStore, commands, batches, directory);
  const oplog = new OperationLog(commandStore);
  const commandRequests = new CommandRequests({
    access,
    accountStore,
    directory,
    devices,
    passwordChecks,
    commands,
    batches,
    store: commandStore,
    oplog,
  });
  const commandTemplates = new CommandTemplates(new TemplateStore(kv), access, oplog);
  const workModeRequests = new WorkModeRequests({
    access,
    accountStore,
    directory,
    store: workModeStore,
    workModes,
    oplog,
  });
  // Fence and broadcast commands: the send policy when saved, the owner's rights when fired.
  const ruleCommands = new RuleCommands({
    accounts: accountStore,
    commands,
    store: commandStore,
    passwordChecks,
  });

  // Geofences, alert settings (the message center reads them too), notifications.
  const geofenceStore = new GeofenceStore(kv);
  const geofences = new GeofenceService(geofenceStore, access, directory, ruleCommands);
  await geofences.load();
  const alertSettings = new AlertSettingsStore(
    new AlertSettingsRecords(kv),
    (imei) => deviceStore.getDetail<DeviceDetail>(imei),
  );
  await alertSettings.load();
  const mailer = new Mailer(config);
  const codes = new CodeStore(new CodeRecords(kv));
  const webhooks = new WebhookSender(
    new WebhookLogStore(kv),
    config.WEBHOOK_RETRY_MS,
    config.WEBHOOK_ALLOW_PRIVATE === "on",
  );
  const messages = new MessageStore(new MessageRecords(kv));
  const notices = new PlatformNotices({
    messages,
    accounts: accountStore,
    directory,
    deviceSettings: () => alertSettings.allOwn(),
  });

  // Addresses: alerts carry the address of where they happened, written when raised.
  const geocoder = new Geocoder({
    landmarks: geofences,
    street: config.GEOCODER_URL
      ? new StreetGeocoder(config.GEOCODER_URL, new GeocoderStore(kv), {
        ratePerSecond: config.GEOCODER_RATE,
      })
      : null,
  });
  const alertAddresses = new AlertAddresses({ alerts, geocoder, accounts: accountStore });

  // Ingest (steps 1-2 of the position pipeline), then the alerts area (steps 3-5).
  const ingestor = new Ingestor(
    directory,
    positions,
    alerts,
    bus,
    offlineMs,
    alertAddresses.addressNow,
    metrics.gateway.ingest,
  );
  await ingestor.recover();
  const alerting = await createAlerting(config, {
    broadcastRules: new BroadcastRecords(kv),
    access,
    accountStore,
    directory,
    devices,
    alerts,
    alertSettings,
    events: bus,
    geofences,
    zones: geofenceStore,
    ruleCommands,
    mailer,
    codes,
    webhooks,
    messages,
    addressOf: alertAddresses.addressNow,
    metrics: metrics.alerts,
  });
  const monitor = new MonitorService(
    new MonitorStore(kv),
    access,
    accountStore,
    directory,
    devices,
    offlineMs,
  );

  metrics.registry.gaugeFn(
    "tp_live_stream_clients",
    "Open live-stream (SSE) clients of the map pages",
    [],
    (emit) => emit(monitor.streams.open),
  );

  connectPipeline(
    bus,
    positionPipeline({ ...alerting, alertAddresses, notices, streams: monitor.streams }),
  );
  connectReactions(bus, { notices, accountStore, gatewayStore, workModes });
  alertAddresses.start();

  return {
    ...alerting,
    kv,
    config,
    systemStore: new SystemStore(kv),
    bus,
    metrics,
    accountStore,
    accounts,
    access,
    authStore,
    auth,
    passwordChecks,
    captcha,
    domains,
    domainService: new DomainService(domains, access, new DomainImages(config.DATA_DIR, domains)),
    directory,
    deviceStore,
    devices,
    deviceGroups: new GroupService(directory, deviceStore, access, devices),
    deviceOps: new DeviceOperations(
      directory,
      deviceStore,
      accountStore,
      access,
      devices,
      connections,
    ),
    deviceTransfer: new DeviceTransfer(accountStore, access, devices, bus),
    deviceFiles: new DeviceFiles(config.DATA_DIR, devices, deviceStore),
    deviceRenewal: new DeviceRenewal(
      directory,
      accountStore,
      access,
      devices,
      wallet,
      (session) => devices.hidesPlatformExpiry(session),
    ),
    wallet,
    positions,
    playback: new Playback(positions, devices),
    ingestor,
    connections,
    gatewayStore,
    commandStore,
    commands,
    batches,
    commandRequests,
    commandTemplates,
    ruleCommands,
    workModeStore,
    workModes,
    workModeRequests,
    geofenceStore,
    geofences,
    alerts,
    alertSettings,
    mailer,
    codes,
    webhooks,
    messages,
    notices,
    monitor,
    geocoder,
    alertAddresses,
  };
}
