/**
 * The composition root: builds every module in dependency order, handing each constructor
 * only the services it uses, then connects the position pipeline (app/position_pipeline.ts)
 * and the reactions to domain events (app/events.ts). Nothing is attached to a service after
 * it is built. `lib/` never imports a module; this file and app/app.ts are where they meet.
 */
import type { Config } from "../lib/config.ts";
import type { Cluster } from "../lib/cluster/types.ts";
import { singleCluster } from "../lib/cluster/local.ts";
import type { BlobStore } from "../lib/blobs/types.ts";
import { openBlobStore } from "../lib/blobs/open.ts";
import { AccessGuard } from "../modules/accounts/access.ts";
import { AccountService } from "../modules/accounts/service.ts";
import { AccountStore } from "../modules/accounts/store.ts";
import { AlertStore } from "../modules/alerts/store.ts";
import { AlertSettingsStore } from "../modules/alerts/settings.ts";
import { AlertSettingsRecords, BroadcastRecords } from "../modules/alerts/settings_store.ts";
import { type AlertingServices, createAlerting } from "../modules/alerts/wiring.ts";
import { EngineStateStore } from "../modules/alerts/store_engine_state.ts";
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
import { syncDirectory } from "../modules/devices/directory_sync.ts";
import { CacheSync, syncCache } from "../lib/cluster/cache_sync.ts";
import { syncPositions } from "../modules/positions/store_sync.ts";
import { relayPopups } from "../modules/alerts/popup_relay.ts";
import { LiveRelay } from "../modules/monitor/live_relay.ts";
import { syncLiveRoutes } from "../modules/monitor/live_sync.ts";
import { DeviceService } from "../modules/devices/service.ts";
import { DeviceStore } from "../modules/devices/store.ts";
import { GroupService } from "../modules/devices/groups.ts";
import { DeviceOperations } from "../modules/devices/operations.ts";
import { DeviceTransfer } from "../modules/devices/transfer.ts";
import { DeviceFiles } from "../modules/devices/files.ts";
import { DeviceRenewal } from "../modules/devices/renewal.ts";
import { WalletService } from "../modules/wallet/service.ts";
import { WalletStore } from "../modules/wallet/store.ts";
import { CreditsService } from "../modules/credits/service.ts";
import { CreditStore } from "../modules/credits/store.ts";
import { SmsGateway } from "../modules/notifications/sms.ts";
import { WalletLogs } from "../modules/wallet/logs.ts";
import { CardCodes } from "../modules/wallet/card_codes.ts";
import type { CreditsReader } from "../modules/wallet/model.ts";
import { PackageService } from "../modules/packages/service.ts";
import { PackageStore } from "../modules/packages/store.ts";
import type { SmsCreditGrant } from "../modules/packages/model.ts";
import { SMS_CREDITS } from "../modules/credits/model.ts";
import { DomainStore } from "../modules/domains/store.ts";
import { DomainImages } from "../modules/domains/images.ts";
import { DomainService } from "../modules/domains/service.ts";
import { Playback } from "../modules/positions/playback.ts";
import { ConnectionRegistry } from "../modules/gateway/link/connections.ts";
import { Ingestor } from "../modules/gateway/ingest/ingest.ts";
import { GatewayStore } from "../modules/gateway/link/store.ts";
import { SessionRegistry } from "../modules/gateway/link/sessions.ts";
import { SessionStore } from "../modules/gateway/link/store_sessions.ts";
import { GeofenceService } from "../modules/geofences/service.ts";
import { GeofenceStore } from "../modules/geofences/store.ts";
import { PositionStore } from "../modules/positions/store.ts";
import { SystemStore } from "../modules/system/store.ts";
import { JobSlotStore } from "../modules/system/store_job_slots.ts";
import { MonitorService } from "../modules/monitor/service.ts";
import { MonitorStore } from "../modules/monitor/store.ts";
import { CodeStore } from "../modules/notifications/codes.ts";
import { Mailer } from "../modules/notifications/mailer.ts";
import { MessageStore } from "../modules/notifications/messages.ts";
import { PlatformNotices } from "../modules/notifications/notices.ts";
import { ReportCounter } from "../modules/notifications/report_counts.ts";
import { ReportCountStore } from "../modules/notifications/store_report_counts.ts";
import { CodeRecords, MessageRecords } from "../modules/notifications/store.ts";
import { WebhookSender } from "../modules/notifications/webhook.ts";
import { WebhookLogStore } from "../modules/notifications/webhook_store.ts";
import { Geocoder } from "../modules/geocoder/service.ts";
import { GeocoderStore } from "../modules/geocoder/store.ts";
import { StreetGeocoder } from "../modules/geocoder/street.ts";
import { AlertAddresses } from "../modules/geocoder/alert_addresses.ts";
import { MyReports } from "../modules/reports/my_reports.ts";
import { MyReportsStore } from "../modules/reports/my_reports_store.ts";
import { createMotion, type MotionServices } from "../modules/motion/service.ts";
import { MotionStore } from "../modules/motion/store.ts";
import { directoryDevices } from "../modules/motion/directory_devices.ts";
import { ReportService } from "../modules/reports/service.ts";
import { ReportOverviews } from "../modules/reports/overview.ts";
import { SessionReportRunner } from "../modules/reports/runner.ts";
import type { ReportRunner } from "../modules/reports/types.ts";
import { DEFAULT_MOTION_RULES } from "../modules/motion/types.ts";
import { ReportExport } from "../modules/reports/export/service.ts";
import { TaskService } from "../modules/tasks/service.ts";
import { AutoReportService } from "../modules/autoreports/service.ts";
import { AutoReportRuns } from "../modules/autoreports/runs.ts";
import { AutoReportStore } from "../modules/autoreports/store.ts";
import { TaskStore } from "../modules/tasks/store.ts";
import { FleetAccess } from "../modules/fleet/access.ts";
import { DriverService } from "../modules/fleet/drivers.ts";
import { DriverTimelineService } from "../modules/fleet/timeline.ts";
import type { DriverTimeline } from "../modules/fleet/model.ts";
import { FleetStore } from "../modules/fleet/store.ts";
import { SwipeService } from "../modules/fleet/swipes.ts";
import { BoardService, type FleetBoardSlots } from "../modules/fleet/board.ts";
import { DriverAvatars } from "../modules/fleet/avatars.ts";
import { DriverSheets } from "../modules/fleet/sheets.ts";
import { FleetExpiries } from "../modules/fleet/expiry.ts";
import { VehicleService } from "../modules/fleet/vehicles.ts";
import { PathService } from "../modules/fleet/paths_service.ts";
import { PathStore } from "../modules/fleet/paths_store.ts";
import { OsrmRouter } from "../modules/fleet/paths_routing.ts";
import { CorridorWatch } from "../modules/fleet/paths_watch.ts";
import { ReminderService } from "../modules/fleet/reminders_service.ts";
import { ReminderStore } from "../modules/fleet/reminders_store.ts";
import type { RouteWatch } from "../modules/alerts/types.ts";
import { DemoService } from "../modules/demo/service.ts";
import { DemoStore } from "../modules/demo/store.ts";
import { EmbedService } from "../modules/embed/service.ts";
import { EmbedStore } from "../modules/embed/store.ts";
import { AccountInfoExport } from "../modules/accountinfo/service.ts";
import { AccountInfoStore } from "../modules/accountinfo/store.ts";
import { OwnEmail } from "../modules/ownemail/service.ts";
import { CommonAddresses } from "../modules/commonaddress/service.ts";
import { CommonAddressStore } from "../modules/commonaddress/store.ts";
import { AreaSearch } from "../modules/areasearch/service.ts";
import { BusinessLog } from "../modules/businesslog/service.ts";
import { BusinessLogStore } from "../modules/businesslog/store.ts";
import { ManualService } from "../modules/manual/service.ts";
import { ManualStore } from "../modules/manual/store.ts";
import { AnnouncementService } from "../modules/announcements/service.ts";
import { AnnouncementStore } from "../modules/announcements/store.ts";
import { openMethods } from "../modules/openapi/methods/index.ts";
import type { OpenMethod } from "../modules/openapi/types.ts";
import { PushStore } from "../modules/openapi/store_push.ts";
import { PushEndpoints } from "../modules/openapi/push_service.ts";
import { PushDelivery } from "../modules/openapi/push_delivery.ts";
import { OpenKeyStore } from "../modules/openapi/store_keys.ts";
import { OpenKeys } from "../modules/openapi/keys.ts";
import { OpenTokens } from "../modules/openapi/tokens.ts";
import { SecretBox } from "../modules/openapi/secret_box.ts";
import { OpenRateLimits } from "../modules/openapi/rate_limits.ts";
import { oauthMethods } from "../modules/openapi/methods/oauth.ts";
import { userChildMethods } from "../modules/openapi/methods/user_child.ts";
import { createVideo } from "../modules/video/wiring.ts";
import { SensorStore } from "../modules/sensors/store.ts";
import { type FuelTank, SensorRecorder } from "../modules/sensors/recorder.ts";
import { SensorReadings } from "../modules/sensors/reader.ts";
import { SensorRelay } from "../modules/sensors/relay.ts";
import { ClusterMediaHub } from "../modules/video/cluster_media.ts";
import { MediaHolderStore } from "../modules/video/store_media_holder.ts";
import { SignalRelay } from "../modules/video/signal_relay.ts";
import { VideoStore } from "../modules/video/store.ts";
import type { VideoServices } from "../modules/video/routes.ts";
import type { VideoDesk } from "../modules/gateway/types.ts";
import { mediaHost } from "../modules/video/address.ts";
import { FLEET_AVATAR_PATH } from "../modules/fleet/routes.ts";
import { createMediaHub, type MediaHubImpl } from "../modules/video/media/mod.ts";
import { type AppBus, connectReactions, createBus } from "./events.ts";
import { connectPipeline, type PipelineServices, positionPipeline } from "./position_pipeline.ts";
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
  /** How this process runs with others (single mode: alone; lib/cluster/types.ts). */
  cluster: Cluster;
  /** File bytes (photos, images, media, downloads): DATA_DIR, or PostgreSQL in cluster mode. */
  blobs: BlobStore;
  /** What GET /health reads. */
  systemStore: SystemStore;
  /** Cron slots claimed once across instances (modules/system/jobs.ts). */
  jobSlots: JobSlotStore;
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
  /** Credit balances, buying and sharing them, SMS and the push quota (modules/credits). */
  credits: CreditsService;
  /** The wallet page's logs and their export. */
  walletLogs: WalletLogs;
  /** Recharge card codes (the administrator's import and list). */
  cardCodes: CardCodes;
  /** The business centre's packages. */
  packages: PackageService;
  /** Credit balances as the wallet shows them. */
  creditsReader: CreditsReader;
  // gateway, positions, commands, work modes
  positions: PositionStore;
  /** Tracks for the playback page (range rules, visibility). */
  playback: Playback;
  ingestor: Ingestor;
  connections: ConnectionRegistry;
  /** Cluster mode: which instance holds each device (null in single mode: this one holds all). */
  deviceSessions: SessionRegistry | null;
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
  /** The task centre: background exports, their progress and files (7 days). */
  tasks: TaskService;
  /** Each user's own report list (/reportList). */
  myReports: MyReports;
  /** The motion analysis: the MotionReader the reports read, the per-account rules. */
  motion: MotionServices;
  /** Sensor readings (modules/sensors): the pipeline's recorder and what the reports read. */
  sensorRecorder: SensorRecorder;
  sensorReadings: SensorReadings;
  /** The report queries (/v3/new/report/*) and overviews. */
  reports: ReportService;
  reportOverviews: ReportOverviews;
  /** Runs a report as a user for the export and the task centre. */
  reportRunner: ReportRunner;
  /** Report files (xlsx, csv, pdf): directly, or as a task of the task centre. */
  reportExport: ReportExport;
  /** Automatic reports (modules/autoreports): the records, and their runs (cron, run now). */
  autoReports: AutoReportService;
  autoReportRuns: AutoReportRuns;
  /** Fleet drivers and vehicles (modules/fleet, enterprise only). */
  fleetDrivers: DriverService;
  fleetVehicles: VehicleService;
  /** RFID swipes (driver identity reports the gateway stores) and the data board. */
  fleetSwipes: SwipeService;
  /** Who drove a device when (swipes, else the vehicle's driver): the monitor card's driver. */
  driverTimeline: DriverTimeline;
  fleetBoard: BoardService;
  fleetAvatars: DriverAvatars;
  fleetDriverSheets: DriverSheets;
  /** Fleet route planning: planned routes and their corridors (modules/fleet/paths*). */
  fleetPaths: PathService;
  /** Fleet reminders and their daily due check (modules/fleet/reminders*). */
  fleetReminders: ReminderService;
  /** Demo applications, their review and the trial accounts (modules/demo). */
  demo: DemoService;
  /** Read-only embed keys and framing origins of the /iframe map (modules/embed). */
  embed: EmbedService;
  /** The account info export, once every ten minutes per account (modules/accountinfo). */
  accountInfo: AccountInfoExport;
  /** The user's own e-mail, set with a mailed code (modules/ownemail). */
  ownEmail: OwnEmail;
  /** Each device's common addresses (modules/commonaddress). */
  commonAddresses: CommonAddresses;
  /** Area car-finding on the monitor (modules/areasearch). */
  areaSearch: AreaSearch;
  /** Every business operation of the API, per subtree, 180 days (modules/businesslog). */
  businessLog: BusinessLog;
  /** The user manual and API documents (modules/manual). */
  manuals: ManualService;
  /** Announcements to a subtree and the pop-up window check (modules/announcements). */
  announcements: AnnouncementService;
  /** Video: live, history, downloads, event media, settings, links (modules/video). */
  video: VideoServices;
  /** The video module as the gateway sees it (JT/T 1078 answers, alarm media). */
  videoDesk: VideoDesk;
  /** The JT/T 1078 streams (live, playback, recording) main.ts's media listener feeds. */
  mediaHub: MediaHubImpl;
  /** The Open API's device, location, track, alarm, instruction, fence and report methods. */
  openMethods: OpenMethod[];
  /** Open API app keys, access tokens, rate limits and the frame's own methods (issue 22, O1). */
  openKeys: OpenKeys;
  openTokens: OpenTokens;
  openLimits: OpenRateLimits;
  /** jimi.oauth.* and jimi.user.child.* (the dispatcher adds them to openMethods). */
  openFrameMethods: OpenMethod[];
  /** Open API push endpoints (POST /v3/new/openapi/push/*) and their delivery. */
  pushEndpoints: PushEndpoints;
  pushDelivery: PushDelivery;
}

/** What every area is built from: the store, the settings, the bus and the metrics. */
interface Core {
  kv: Deno.Kv;
  config: Config;
  /** Single mode's in-process link, or cluster mode's NATS link and leadership (issue 23). */
  cluster: Cluster;
  /** File bytes, each module under its own key prefix (lib/blobs). */
  blobs: BlobStore;
  bus: AppBus;
  metrics: AppMetrics;
  /** How long a silent device stays online (OFFLINE_MINUTES). */
  offlineMs: number;
}

/** Each area's handle: the services it built, by their names in Services. */
type SignInArea = Pick<
  Services,
  "accountStore" | "access" | "authStore" | "auth" | "passwordChecks" | "captcha"
>;
type DevicesArea = Pick<Services, "deviceStore" | "directory" | "devices" | "wallet" | "accounts">;
type GatewayArea = Pick<
  Services,
  "positions" | "alerts" | "connections" | "gatewayStore" | "deviceSessions"
>;
type CommandsArea = Pick<
  Services,
  | "commandStore"
  | "commands"
  | "batches"
  | "workModeStore"
  | "workModes"
  | "commandRequests"
  | "commandTemplates"
  | "workModeRequests"
  | "ruleCommands"
>;
type GeofencesArea = Pick<Services, "geofenceStore" | "geofences" | "alertSettings">;
type NotificationsArea = Pick<Services, "mailer" | "codes" | "webhooks" | "messages" | "notices">;
type AddressesArea = Pick<Services, "geocoder" | "alertAddresses">;
type AlertingArea = AlertingServices & Pick<Services, "ingestor">;
type DeviceRequestsArea = Pick<
  Services,
  "deviceGroups" | "deviceOps" | "deviceTransfer" | "deviceFiles" | "deviceRenewal" | "playback"
>;

export async function compose(
  kv: Deno.Kv,
  config: Config,
  cluster: Cluster = singleCluster(),
): Promise<Services> {
  const core: Core = {
    kv,
    config,
    cluster,
    blobs: await openBlobStore(config),
    bus: createBus(),
    metrics: createMetrics(),
    offlineMs: config.OFFLINE_MINUTES * 60_000,
  };
  const signIn = buildSignIn(core);
  const devices = await buildDevices(core, signIn);
  const credits = buildCredits(core, signIn, devices);
  const domains = new DomainStore(kv);
  syncCache(new CacheSync(cluster), "domains", domains);
  const gateway = buildGateway(core);
  const commands = buildCommands(core, signIn, devices, gateway);
  const geofences = await buildGeofences(core, signIn, devices, commands);
  // Fleet records: the gateway's commit keeps driver identities in it (pending swipes), the
  // daily reminders read its licence and insurance dates.
  const fleetStore = new FleetStore(kv);
  const notifications = buildNotifications(core, signIn, devices, geofences, credits, fleetStore);
  const addresses = buildAddresses(core, signIn, gateway, geofences);
  // Planned routes: the alert engine asks their corridor watch about every live fix.
  const corridorWatch = new CorridorWatch();
  const alerting = await buildAlerting(core, {
    ...signIn,
    ...devices,
    ...gateway,
    ...commands,
    ...geofences,
    ...notifications,
    ...addresses,
    credits,
    fleetStore,
  }, corridorWatch);
  const monitor = buildMonitor(core, signIn, devices);
  const fleetPaths = await buildFleetPaths(core, signIn, devices, corridorWatch);
  const tasks = new TaskService(new TaskStore(kv));
  // Tasks still "running" in the store belonged to the previous process.
  await tasks.recover();
  const motion = await buildMotion(core, signIn, devices, gateway, geofences);
  const fleetReminders = new ReminderService({
    store: new ReminderStore(kv),
    access: new FleetAccess(signIn.access, signIn.accountStore),
    accounts: signIn.accountStore,
    directory: devices.directory,
    motion: motion.reader,
    messages: notifications.messages,
    mailer: notifications.mailer,
  });
  const deviceRequests = buildDeviceRequests(core, signIn, devices, gateway);
  const sensors = buildSensors(core, deviceRequests, gateway);
  const reports = buildReports(
    core,
    signIn,
    devices,
    gateway,
    geofences,
    addresses,
    motion,
    sensors.sensorReadings,
    new DriverTimelineService(fleetStore),
  );
  const reportExport = new ReportExport({
    runner: reports.reportRunner,
    tasks,
    accounts: signIn.accountStore,
    deviceOwner: (imei) => devices.directory.get(imei)?.userId,
  });
  const autoReportSources = {
    store: new AutoReportStore(kv),
    access: signIn.access,
    devices: devices.devices,
    directory: devices.directory,
    accounts: signIn.accountStore,
  };
  const autoReportRuns = new AutoReportRuns({
    ...autoReportSources,
    reportExport,
    tasks,
    mailer: notifications.mailer,
  });
  // Runs still "running" in the store were cut by a restart: failed, never sent twice.
  await autoReportRuns.recover();
  const fleet = await buildFleet(core, signIn, devices, motion, fleetStore, {
    reminders: (scope) => fleetReminders.counts(scope),
    deviationsToday: (scope) => fleetPaths.fleetPaths.deviationsToday(scope, gateway.alerts),
  });
  const push = await buildOpenPush(core, signIn, devices, notifications);
  const video = buildVideo(core, devices, gateway, fleetStore);
  connectAreas(core, alerting, {
    openPush: push.pushDelivery,
    motion: motion.engine,
    sensors: sensors.sensorRecorder,
    eventMedia: video.video.events,
    alertAddresses: addresses.alertAddresses,
    notices: notifications.notices,
    streams: monitor.streams,
    accountStore: signIn.accountStore,
    gatewayStore: gateway.gatewayStore,
    workModes: commands.workModes,
    fleetSwipes: fleet.fleetSwipes,
    credits,
  });

  return {
    ...alerting,
    kv,
    config,
    cluster,
    blobs: core.blobs,
    systemStore: new SystemStore(kv),
    jobSlots: new JobSlotStore(kv),
    bus: core.bus,
    metrics: core.metrics,
    ...signIn,
    ...devices,
    domains,
    domainService: new DomainService(
      domains,
      signIn.access,
      new DomainImages(core.blobs, domains),
    ),
    ...deviceRequests,
    credits,
    ...buildBusinessCentre(core, signIn, devices, credits),
    ...gateway,
    ...commands,
    ...geofences,
    ...notifications,
    monitor,
    ...addresses,
    tasks,
    myReports: new MyReports(new MyReportsStore(kv)),
    motion,
    ...sensors,
    ...reports,
    reportExport,
    autoReports: new AutoReportService(autoReportSources),
    autoReportRuns,
    ...fleetPaths,
    fleetReminders,
    ...fleet,
    driverTimeline: new DriverTimelineService(fleetStore),
    ...buildHelp(core, signIn),
    ...push,
    ...buildOpenFrame(core, signIn, devices, gateway),
    openMethods: openMethods({
      access: signIn.access,
      accounts: signIn.accountStore,
      directory: devices.directory,
      devices: devices.devices,
      deviceOps: deviceRequests.deviceOps,
      deviceTransfer: deviceRequests.deviceTransfer,
      tracks: gateway.positions,
      alerts: gateway.alerts,
      shares: monitor.shares,
      commandRequests: commands.commandRequests,
      geofences: geofences.geofences,
      motion: motion.reader,
      offlineMs: core.offlineMs,
    }),
    commonAddresses: new CommonAddresses(new CommonAddressStore(kv), devices.devices),
    areaSearch: new AreaSearch(monitor),
    ownEmail: new OwnEmail({
      access: signIn.access,
      accounts: signIn.accountStore,
      codes: notifications.codes,
      mailer: notifications.mailer,
    }),
    accountInfo: new AccountInfoExport({
      access: signIn.access,
      accounts: signIn.accountStore,
      directory: devices.directory,
      store: new AccountInfoStore(kv),
    }),
    embed: new EmbedService({
      store: new EmbedStore(kv),
      access: signIn.access,
      accounts: signIn.accountStore,
      directory: devices.directory,
      offlineMs: core.offlineMs,
    }),
    ...video,
    demo: new DemoService({
      store: new DemoStore(kv),
      captcha: signIn.captcha,
      access: signIn.access,
      accountStore: signIn.accountStore,
      accounts: devices.accounts,
      mailer: notifications.mailer,
      config,
    }),
  };
}

/**
 * Video (modules/video): the signalling, API and event media over the media hub (the JT/T
 * 1078 half); terminals are told this server's media and attachment addresses.
 */
function buildVideo(
  { kv, config, metrics, blobs, cluster }: Core,
  { devices, directory }: DevicesArea,
  { connections, alerts, deviceSessions }: GatewayArea,
  fleetStore: FleetStore,
): Pick<Services, "video" | "videoDesk" | "mediaHub"> {
  const timeline = new DriverTimelineService(fleetStore);
  const mediaHub = createMediaHub();
  metrics.registry.gaugeFn(
    "tp_video_streams",
    "JT/T 1078 streams in the media hub by kind (live, playback, download) and connection",
    ["kind", "connected"],
    (emit) => {
      const counts = new Map<string, number>();
      for (const s of mediaHub.streams()) {
        const p = s.key.purpose;
        const kind = p === "live" ? "live" : p.startsWith("dl") ? "download" : "playback";
        const k = `${kind}|${s.connected}`;
        counts.set(k, (counts.get(k) ?? 0) + 1);
      }
      for (const [k, n] of counts) emit(n, ...k.split("|"));
    },
  );
  const mediaPort = config.MEDIA_PUBLIC_PORT ?? config.JT1078_PORT;
  // Cluster mode: a camera's stream lands on any instance; HLS is asked of its holder.
  const clusterHub = cluster.mode === "cluster"
    ? new ClusterMediaHub({
      local: mediaHub,
      cluster,
      holders: new MediaHolderStore(kv),
      blobs,
      workDir: `${config.DATA_DIR}/video/work`,
    })
    : undefined;
  const video = createVideo({
    store: new VideoStore(kv),
    dataDir: config.DATA_DIR,
    blobs,
    hub: clusterHub ?? mediaHub,
    remoteHls: clusterHub,
    relay: clusterHub && deviceSessions ? new SignalRelay(cluster.link, deviceSessions) : undefined,
    serveSignals: clusterHub && ((target) => clusterHub.serveSignals(target)),
    connections,
    alerts,
    devices,
    visibleImeis: async (session, imeis) =>
      imeis
        ? (await devices.visibleDevices(session, imeis)).map((d) => d.imei)
        : (await devices.select(session, {})).map((r) => r.d.imei),
    device: (imei) => directory.get(imei),
    mediaAddress: (conn) => ({ host: mediaHost(config, conn), port: mediaPort }),
    attachmentAddress: (conn) => ({
      host: mediaHost(config, conn),
      port: config.JT_ATTACHMENT_PORT,
    }),
    // A DMS face comparison is shown against the fleet's driver of that moment and their photo.
    driverOf: async (imei, time) => {
      const [at] = await timeline.driversAt(imei, [time]);
      const driver = at ? await fleetStore.driver(at.id) : null;
      if (!at) return null;
      return driver?.avatar
        ? { name: at.name, photo: `${FLEET_AVATAR_PATH}/${at.id}` }
        : { name: at.name };
    },
  });
  return { video: video.services, videoDesk: video.desk, mediaHub };
}

/** Help and logs: the business log, the help documents and announcements. */
function buildHelp(
  { kv }: Core,
  { access, accountStore }: SignInArea,
): Pick<Services, "businessLog" | "manuals" | "announcements"> {
  return {
    businessLog: new BusinessLog(new BusinessLogStore(kv), access, accountStore),
    manuals: new ManualService(new ManualStore(kv), access),
    announcements: new AnnouncementService(new AnnouncementStore(kv), access),
  };
}

/** Accounts and sign-in (the account service comes with the devices that guard deletions). */
function buildSignIn({ kv, config }: Core): SignInArea {
  const accountStore = new AccountStore(kv);
  const access = new AccessGuard(accountStore);
  const authStore = new AuthStore(kv);
  const passwordChecks = new PasswordChecks(authStore);
  const captcha = new CaptchaService(new CaptchaStore(kv));
  const auth = new AuthService(authStore, accountStore, captcha, config);
  return { accountStore, access, authStore, auth, passwordChecks, captcha };
}

/** Devices, the wallet, and the account service whose deletions they guard. */
async function buildDevices(
  { kv, bus, offlineMs, cluster }: Core,
  { accountStore, access, passwordChecks, auth }: SignInArea,
): Promise<DevicesArea> {
  const deviceStore = new DeviceStore(kv);
  const directory = new DeviceDirectory(deviceStore);
  await directory.load();
  // Cluster mode: device writes and state flushes re-read on the other instances.
  syncDirectory(directory, new CacheSync(cluster));
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
  return { deviceStore, directory, devices, wallet, accounts };
}

/** The wallet page's logs, recharge card codes and packages. */
function buildBusinessCentre(
  { kv }: Core,
  { accountStore, access }: SignInArea,
  { wallet }: DevicesArea,
  credits: CreditsService,
) {
  const creditsReader: CreditsReader = credits;
  // A package's SMS count is granted as the credits those SMS cost.
  const smsGrant: SmsCreditGrant = {
    grantSms: async (id, sms) => {
      await credits.grantCredits(id, sms * SMS_CREDITS, id);
    },
  };
  const walletStore = new WalletStore(kv);
  return {
    walletLogs: new WalletLogs(walletStore, access, accountStore),
    cardCodes: new CardCodes(walletStore, access),
    packages: new PackageService(new PackageStore(kv), access, accountStore, wallet, smsGrant),
    creditsReader,
  };
}

/**
 * Credits: balances (seeded with the account's free credits), buying them with coins in the
 * wallet's commit (the wallet store as its CoinDebits port), sharing, SMS and the push quota.
 */
function buildCredits(
  { kv, config }: Core,
  { accountStore, access }: SignInArea,
  { wallet }: DevicesArea,
): CreditsService {
  return new CreditsService({
    store: new CreditStore(kv, new WalletStore(kv)),
    accounts: accountStore,
    access,
    wallet,
    freePushes: config.FREE_PUSHES_PER_MONTH,
    sms: config.SMS_URL ? new SmsGateway(config.SMS_URL) : null,
  });
}

/** The gateway's stores and live connections, and the positions and alerts it writes. */
function buildGateway({ kv, cluster }: Core): GatewayArea {
  // Single mode records no sessions: nothing else would read them.
  const deviceSessions = cluster.mode === "cluster"
    ? new SessionRegistry(new SessionStore(kv), cluster)
    : null;
  const positions = new PositionStore(kv, cluster.mode === "cluster" ? cluster.instanceId : null);
  // Cluster mode: journal writes and block writes announced, so reads anywhere find them.
  syncPositions(positions, new CacheSync(cluster));
  return {
    positions,
    alerts: new AlertStore(kv),
    connections: new ConnectionRegistry(deviceSessions),
    gatewayStore: new GatewayStore(kv),
    deviceSessions,
  };
}

/** Commands, work modes, and their API requests. */
function buildCommands(
  { kv, bus, cluster }: Core,
  { access, accountStore, passwordChecks }: SignInArea,
  { directory, devices }: DevicesArea,
  { connections, deviceSessions }: GatewayArea,
): CommandsArea {
  const commandStore = new CommandStore(kv);
  // Cluster mode: a device connected to another instance gets its commands through it.
  const route = deviceSessions && { ...cluster, sessions: deviceSessions };
  const commands = new CommandService(commandStore, connections, undefined, bus, route);
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
  return {
    commandStore,
    commands,
    batches,
    workModeStore,
    workModes,
    commandRequests,
    commandTemplates,
    workModeRequests,
    ruleCommands,
  };
}

/** Geofences and alert settings (the message center reads them too), both loaded. */
async function buildGeofences(
  { kv, cluster }: Core,
  { access }: SignInArea,
  { directory, deviceStore }: DevicesArea,
  { ruleCommands }: CommandsArea,
): Promise<GeofencesArea> {
  const geofenceStore = new GeofenceStore(kv);
  const geofences = new GeofenceService(geofenceStore, access, directory, ruleCommands);
  await geofences.load();
  const alertSettings = new AlertSettingsStore(
    new AlertSettingsRecords(kv),
    (imei) => deviceStore.getDetail<DeviceDetail>(imei),
  );
  await alertSettings.load();
  // Cluster mode: zones and alert settings written elsewhere are re-read here (the alert
  // engine of the instance holding a device must apply them).
  const sync = new CacheSync(cluster);
  syncCache(sync, "zones", geofences);
  syncCache(sync, "alertSettings", alertSettings);
  return { geofenceStore, geofences, alertSettings };
}

/** Mail, codes, webhooks, the message center and platform notices. */
function buildNotifications(
  { kv, config }: Core,
  { accountStore }: SignInArea,
  { directory }: DevicesArea,
  { alertSettings }: GeofencesArea,
  credits: CreditsService,
  fleetStore: FleetStore,
): NotificationsArea {
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
    credits,
    mailer,
    fleet: new FleetExpiries(fleetStore),
    reportCounts: new ReportCounter(new ReportCountStore(kv)),
  });
  return { mailer, codes, webhooks, messages, notices };
}

/** Addresses: alerts carry the address of where they happened, written when raised. */
function buildAddresses(
  { kv, config }: Core,
  { accountStore }: SignInArea,
  { alerts }: GatewayArea,
  { geofences }: GeofencesArea,
): AddressesArea {
  const geocoder = new Geocoder({
    landmarks: geofences,
    street: config.GEOCODER_URL
      ? new StreetGeocoder(config.GEOCODER_URL, new GeocoderStore(kv), {
        ratePerSecond: config.GEOCODER_RATE,
      })
      : null,
  });
  const alertAddresses = new AlertAddresses({ alerts, geocoder, accounts: accountStore });
  return { geocoder, alertAddresses };
}

/**
 * Fleet drivers, vehicles, RFID swipes (identities the gateway stored and the last process did
 * not turn into swipes are recorded now) and the data board (modules/fleet).
 */
async function buildFleet(
  { blobs }: Core,
  signIn: SignInArea,
  { devices, directory }: DevicesArea,
  motion: MotionServices,
  store: FleetStore,
  /** The reminder and route modules' tiles of the data board. */
  boardSlots: FleetBoardSlots,
): Promise<
  Pick<
    Services,
    | "fleetDrivers"
    | "fleetVehicles"
    | "fleetSwipes"
    | "fleetBoard"
    | "fleetAvatars"
    | "fleetDriverSheets"
  >
> {
  const access = new FleetAccess(signIn.access, signIn.accountStore);
  const fleetDrivers = new DriverService(store, access, signIn.accountStore);
  const fleetVehicles = new VehicleService(store, access, {
    visibleDevice: (session, imei) => devices.visibleDevice(session, imei),
    nameOf: (imei) => directory.get(imei)?.deviceName ?? "",
  });
  const fleetSwipes = new SwipeService(store, access, signIn.accountStore);
  await fleetSwipes.recover();
  return {
    fleetDrivers,
    fleetVehicles,
    fleetSwipes,
    fleetBoard: new BoardService(
      access,
      fleetDrivers,
      fleetVehicles,
      motion.reader,
      store,
      boardSlots,
    ),
    fleetAvatars: new DriverAvatars(blobs, fleetDrivers),
    fleetDriverSheets: new DriverSheets(fleetDrivers),
  };
}

/** Ingest (steps 1-2 of the position pipeline, recovered), then the alerts area (steps 3-5). */
async function buildAlerting(
  { kv, config, bus, metrics, offlineMs, cluster }: Core,
  a:
    & SignInArea
    & DevicesArea
    & GatewayArea
    & CommandsArea
    & GeofencesArea
    & NotificationsArea
    & AddressesArea
    & { credits: CreditsService; fleetStore: FleetStore },
  routes: RouteWatch,
): Promise<AlertingArea> {
  const ingestor = new Ingestor(
    a.directory,
    a.positions,
    a.alerts,
    bus,
    offlineMs,
    a.alertAddresses.addressNow,
    metrics.gateway.ingest,
    a.fleetStore,
  );
  await ingestor.recover();
  const alerting = await createAlerting(config, {
    // Cluster mode: the engine's per-device state survives a device moving to another instance.
    engineState: cluster.mode === "cluster" ? new EngineStateStore(kv) : undefined,
    broadcastRules: new BroadcastRecords(kv),
    access: a.access,
    accountStore: a.accountStore,
    directory: a.directory,
    devices: a.devices,
    alerts: a.alerts,
    alertSettings: a.alertSettings,
    events: bus,
    geofences: a.geofences,
    zones: a.geofenceStore,
    ruleCommands: a.ruleCommands,
    mailer: a.mailer,
    codes: a.codes,
    webhooks: a.webhooks,
    messages: a.messages,
    // Mail and webhook pushes beyond the free monthly quota cost credits; SMS always do.
    pushes: a.credits,
    sms: a.credits,
    addressOf: a.alertAddresses.addressNow,
    routes,
    metrics: metrics.alerts,
    drivers: new DriverTimelineService(a.fleetStore),
  });
  syncCache(new CacheSync(cluster), "broadcastRules", alerting.autoBroadcast);
  relayPopups(alerting.alertDelivery, cluster);
  return { ...alerting, ingestor };
}

/** Fleet route planning: routes (loaded into the corridor watch), the optional road router. */
async function buildFleetPaths(
  { kv, config, cluster }: Core,
  signIn: SignInArea,
  devices: DevicesArea,
  watch: CorridorWatch,
): Promise<{ fleetPaths: PathService }> {
  const fleetPaths = new PathService(
    new PathStore(kv),
    new FleetAccess(signIn.access, signIn.accountStore),
    devices.directory,
    watch,
    config.ROUTING_URL ? new OsrmRouter(config.ROUTING_URL) : null,
  );
  await fleetPaths.load();
  syncCache(new CacheSync(cluster), "routes", fleetPaths);
  return { fleetPaths };
}

/** The monitor pages' service, and the gauge of their live-stream clients. */
function buildMonitor(
  { kv, metrics, offlineMs, cluster, bus }: Core,
  { access, accountStore }: SignInArea,
  { directory, devices }: DevicesArea,
): MonitorService {
  const clustered = cluster.mode === "cluster";
  const monitor = new MonitorService(
    new MonitorStore(kv),
    access,
    accountStore,
    directory,
    devices,
    offlineMs,
    clustered ? new LiveRelay(cluster, accountStore, directory) : null,
  );
  if (clustered) syncLiveRoutes(bus, monitor, new CacheSync(cluster));
  metrics.registry.gaugeFn(
    "tp_live_stream_clients",
    "Open live-stream (SSE) clients of the map pages",
    [],
    (emit) => emit(monitor.streams.open),
  );
  return monitor;
}

/**
 * The motion analysis (after ingest recovery: it continues from its checkpoints and replays
 * the fixes committed since); MOTION_ANALYSIS=off leaves the live engine out.
 */
async function buildMotion(
  { kv, config, metrics, cluster }: Core,
  { access }: SignInArea,
  { directory }: DevicesArea,
  { positions, deviceSessions }: GatewayArea,
  { alertSettings }: GeofencesArea,
): Promise<MotionServices> {
  const motion = await createMotion({
    store: new MotionStore(kv),
    enabled: config.MOTION_ANALYSIS === "on",
    points: positions,
    // A device reconnecting through the balancer may have been analysed elsewhere meanwhile.
    takeOver: cluster.mode === "cluster",
    // Reports read a device where it is analysed; the leader adopts devices nobody holds.
    cluster: deviceSessions
      ? { link: cluster.link, leader: cluster.leader, holders: deviceSessions }
      : undefined,
    devices: directoryDevices(
      directory,
      (imei) => alertSettings.device(imei)?.overSpeed ?? null,
    ),
    account: async (session, userId) =>
      userId === null ? session.cAccountId : (await access.visibleAccount(session, userId)).id,
  });
  syncCache(new CacheSync(cluster), "motionRules", motion.book);
  const { engine, recompute } = motion;
  if (engine && recompute) {
    metrics.registry.gaugeFn(
      "tp_motion_analysis",
      "Motion analysis counters since start: points, late points, flushes, closed segments, replayed points, checkpoints, flush seconds, recomputed days, rebuilds; in cluster mode also reports asked of the holder or computed from a checkpoint, adoptions and marks left to the holder",
      ["counter"],
      (emit) => {
        for (const [k, v] of Object.entries(engine.stats)) emit(v, k);
        emit(recompute.stats.days, "recomputedDays");
        emit(recompute.stats.rebuilds, "rebuilds");
        for (const [k, v] of Object.entries(motion.clusterStats())) emit(v, k);
      },
    );
  }
  return motion;
}

/**
 * Sensor readings: the pipeline's recorder (its tick and the hourly compaction of finished
 * days start here) and the reader over the store and the recorder's waiting samples.
 */
function buildSensors(
  { kv, cluster }: Core,
  { deviceOps }: DeviceRequestsArea,
  { deviceSessions }: GatewayArea,
): Pick<Services, "sensorRecorder" | "sensorReadings"> {
  const store = new SensorStore(kv);
  const sensorRecorder = new SensorRecorder({
    store,
    leader: cluster.leader, // the hourly compaction: once, on the leader
    // Cluster mode: readings wait only where the device is held (reads ask there).
    appendOnClose: deviceSessions !== null,
    // The device's fuel tanks (details → sensors), the first one converting its readings.
    tanks: async (imei) =>
      ((await deviceOps.loadDetail(imei)).sensors?.oilTanks ?? [])
        .filter((t) => t.type === "fuel") as FuelTank[],
  });
  sensorRecorder.start();
  const relay = deviceSessions
    ? new SensorRelay(sensorRecorder, cluster.link, deviceSessions)
    : undefined;
  relay?.start();
  return { sensorRecorder, sensorReadings: new SensorReadings(store, sensorRecorder, relay) };
}

/** The report queries and overviews over the motion analysis, tracks and alerts. */
function buildReports(
  { offlineMs }: Core,
  { access, accountStore }: SignInArea,
  { devices, directory }: DevicesArea,
  { positions, alerts }: GatewayArea,
  { alertSettings }: GeofencesArea,
  { geocoder }: AddressesArea,
  motion: MotionServices,
  sensors: SensorReadings,
  drivers: DriverTimeline,
): Pick<Services, "reports" | "reportOverviews" | "reportRunner"> {
  const reports = new ReportService({
    sensors,
    drivers,
    devices,
    access,
    motion: motion.reader,
    tracks: positions,
    alerts,
    geocoder,
    directory,
    // The limit the analysis cut the streaks at: the device's threshold, else its rules'.
    overspeedLimit: (imei) =>
      motion.engine?.limitOf(imei) ?? alertSettings.device(imei)?.overSpeed ??
        DEFAULT_MOTION_RULES.overspeedKmh,
    offlineMs,
    // The device's alarm thresholds: the temperature report's out-of-range intervals.
    temperatureLimits: (imei) => {
      const a = alertSettings.device(imei);
      return { min: a?.minTemperature ?? null, max: a?.maxTemperature ?? null };
    },
  });
  return {
    reports,
    reportOverviews: new ReportOverviews({ devices, motion: motion.reader, alerts }),
    reportRunner: new SessionReportRunner({ reports, accounts: accountStore }),
  };
}

/** The position pipeline and the reactions to domain events; the address writer starts. */
function connectAreas(
  { bus }: Core,
  alerting: AlertingArea,
  {
    alertAddresses,
    notices,
    streams,
    accountStore,
    gatewayStore,
    workModes,
    motion,
    fleetSwipes,
    credits,
    openPush,
    sensors,
    eventMedia,
  }:
    & Pick<
      Services,
      | "alertAddresses"
      | "notices"
      | "accountStore"
      | "gatewayStore"
      | "workModes"
      | "fleetSwipes"
      | "credits"
    >
    & {
      streams: MonitorService["streams"];
      motion: MotionServices["engine"];
      openPush: PushDelivery;
      sensors: SensorRecorder;
      eventMedia: PipelineServices["eventMedia"];
    },
): void {
  connectPipeline(
    bus,
    positionPipeline({
      ...alerting,
      alertAddresses,
      notices,
      streams,
      motion,
      openPush,
      sensors,
      eventMedia,
    }),
  );
  connectReactions(bus, {
    notices,
    accountStore,
    gatewayStore,
    workModes,
    fleetSwipes,
    credits,
    openPush,
  });
  alertAddresses.start();
}

/** Open API app keys (secrets sealed with the key file under DATA_DIR), tokens, limits. */
function buildOpenFrame(
  { kv, config, blobs }: Core,
  { access, accountStore, auth }: SignInArea,
  { accounts }: DevicesArea,
  { deviceSessions }: GatewayArea,
): Pick<Services, "openKeys" | "openTokens" | "openLimits" | "openFrameMethods"> {
  const store = new OpenKeyStore(kv);
  const box = new SecretBox(blobs);
  const openKeys = new OpenKeys(store, box, access);
  const openTokens = new OpenTokens(store, openKeys, accountStore, (a) => auth.loginRefusal(a));
  return {
    openKeys,
    openTokens,
    // Cluster mode: each instance enforces its share (the limit / live instances).
    openLimits: new OpenRateLimits(config, {
      instances: deviceSessions ? () => deviceSessions.liveInstances() : undefined,
    }),
    openFrameMethods: [
      ...oauthMethods({ auth, tokens: openTokens, access, accounts: accountStore }),
      ...userChildMethods({ access, accounts: accountStore, accountService: accounts }),
    ],
  };
}

/** Open API push endpoints (loaded) and their delivery through the alert webhooks' sender. */
async function buildOpenPush(
  { kv, cluster }: Core,
  { access, accountStore }: SignInArea,
  { directory }: DevicesArea,
  { webhooks }: NotificationsArea,
): Promise<Pick<Services, "pushEndpoints" | "pushDelivery">> {
  const pushEndpoints = new PushEndpoints(new PushStore(kv), access, webhooks);
  await pushEndpoints.load();
  syncCache(new CacheSync(cluster), "pushEndpoints", pushEndpoints);
  const pushDelivery = new PushDelivery({
    endpoints: pushEndpoints,
    accounts: accountStore,
    directory,
    webhooks,
  });
  return { pushEndpoints, pushDelivery };
}

/** The devices API's services (groups, operations, transfer, files, renewal, playback). */
function buildDeviceRequests(
  { blobs, bus }: Core,
  { accountStore, access }: SignInArea,
  { directory, deviceStore, devices, wallet }: DevicesArea,
  { connections, positions }: GatewayArea,
): DeviceRequestsArea {
  return {
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
    deviceFiles: new DeviceFiles(blobs, devices, deviceStore),
    deviceRenewal: new DeviceRenewal(
      directory,
      accountStore,
      access,
      devices,
      wallet,
      (session) => devices.hidesPlatformExpiry(session),
    ),
    playback: new Playback(positions, devices),
  };
}
