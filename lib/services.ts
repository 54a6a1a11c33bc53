import type { Config } from "./config.ts";
import { AccessGuard } from "../modules/accounts/access.ts";
import { AccountService } from "../modules/accounts/service.ts";
import { AccountStore } from "../modules/accounts/store.ts";
import { AlertStore } from "../modules/alerts/store.ts";
import { AuthService } from "../modules/auth/service.ts";
import { AuthStore } from "../modules/auth/store.ts";
import { PasswordChecks } from "../modules/auth/confirm.ts";
import { CaptchaService } from "../modules/auth/captcha.ts";
import { CommandService } from "../modules/commands/service.ts";
import { CommandStore } from "../modules/commands/store.ts";
import { TemplateStore } from "../modules/commands/store.ts";
import { BatchSender } from "../modules/commands/batch.ts";
import { WorkModeService } from "../modules/workmodes/service.ts";
import { WorkModeStore } from "../modules/workmodes/store.ts";
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
import { EventBus } from "../modules/gateway/bus.ts";
import { ConnectionRegistry } from "../modules/gateway/connections.ts";
import { Ingestor } from "../modules/gateway/ingest.ts";
import { GatewayStore } from "../modules/gateway/store.ts";
import { PositionStore } from "../modules/positions/store.ts";
import { type AlertingServices, createAlerting } from "../modules/alerts/wiring.ts";
import { MonitorService } from "../modules/monitor/service.ts";
import { wirePlatformNotices } from "../modules/notifications/hooks.ts";
import { Geocoder } from "../modules/geocoder/service.ts";
import { GeocoderStore } from "../modules/geocoder/store.ts";
import { StreetGeocoder } from "../modules/geocoder/street.ts";
import { AlertAddresses } from "../modules/geocoder/alert_addresses.ts";

/** Everything the process shares, built once from an open store and the configuration. */
export interface Services extends AlertingServices {
  kv: Deno.Kv;
  config: Config;
  accountStore: AccountStore;
  accounts: AccountService;
  access: AccessGuard;
  authStore: AuthStore;
  auth: AuthService;
  /** Counted checks of a signed-in account's password (change password, command password). */
  passwordChecks: PasswordChecks;
  captcha: CaptchaService;
  domains: DomainStore;
  bus: EventBus;
  directory: DeviceDirectory;
  devices: DeviceService;
  deviceGroups: GroupService;
  deviceOps: DeviceOperations;
  deviceTransfer: DeviceTransfer;
  deviceFiles: DeviceFiles;
  deviceRenewal: DeviceRenewal;
  wallet: WalletService;
  positions: PositionStore;
  alerts: AlertStore;
  ingestor: Ingestor;
  connections: ConnectionRegistry;
  commandStore: CommandStore;
  commands: CommandService;
  batches: BatchSender;
  commandTemplates: TemplateStore;
  workModeStore: WorkModeStore;
  workModes: WorkModeService;
  monitor: MonitorService;
  /** Addresses of points (landmarks, GEOCODER_URL, the embedded place dataset). */
  geocoder: Geocoder;
  alertAddresses: AlertAddresses;
}

export async function createServices(kv: Deno.Kv, config: Config): Promise<Services> {
  const offlineMs = config.OFFLINE_MINUTES * 60_000;
  const accountStore = new AccountStore(kv);
  const access = new AccessGuard(accountStore);
  const authStore = new AuthStore(kv);
  const passwordChecks = new PasswordChecks(authStore);
  const accounts = new AccountService(accountStore, access, passwordChecks);
  const captcha = new CaptchaService(kv);
  const auth = new AuthService(authStore, accountStore, captcha, config);
  accounts.onSessionsInvalid = (id) => auth.forceLogout(id);

  const deviceStore = new DeviceStore(kv);
  const directory = new DeviceDirectory(deviceStore, kv);
  await directory.load();
  accounts.deletionGuards.push(async (
    a,
  ) => (await deviceStore.hasDevices(a.id) ? "devicesStillBound" : null));

  const bus = new EventBus();
  const positions = new PositionStore(kv);
  const alerts = new AlertStore(kv);
  const connections = new ConnectionRegistry();
  const commandStore = new CommandStore(kv);
  const commands = new CommandService(commandStore, connections);
  const batches = new BatchSender(commandStore, commands);
  const workModeStore = new WorkModeStore(kv);
  const devices = new DeviceService(directory, accountStore, access, offlineMs);
  // Devices are never deleted, but an IMEI may come back (a store rebuilt from records, a
  // device record removed by hand): whatever JT/T 808 auth code it had must not survive.
  const gatewayStore = new GatewayStore(kv);
  devices.onImported.push((_, added) => gatewayStore.forgetAuthCodes(added.map((d) => d.imei)));
  const wallet = new WalletService(new WalletStore(kv), accountStore, access);
  // The wallet's ledger is what counts, whatever copy an account record carries.
  accounts.deletionGuards.push((a) => wallet.deletionRefusal(a));
  const monitor = new MonitorService(kv, access, accountStore, directory, devices, bus, offlineMs);
  const ingestor = new Ingestor(kv, directory, positions, alerts, bus, offlineMs);
  await ingestor.recover();
  const alerting = await createAlerting(kv, config, {
    access,
    accountStore,
    directory,
    devices,
    alerts,
    bus,
    commands,
    commandStore,
    passwordChecks,
  });
  const geocoder = new Geocoder({
    landmarks: alerting.geofences,
    street: config.GEOCODER_URL
      ? new StreetGeocoder(config.GEOCODER_URL, new GeocoderStore(kv), {
        ratePerSecond: config.GEOCODER_RATE,
      })
      : null,
  });
  // Alerts carry the address of where they happened, written when they are raised.
  const alertAddresses = new AlertAddresses({ bus, alerts, geocoder, accounts: accountStore });
  ingestor.addressOf = alertAddresses.addressNow;
  alerting.alertEngine.addressOf = alertAddresses.addressNow;
  alertAddresses.start();
  const services: Services = {
    ...alerting,
    kv,
    config,
    accountStore,
    accounts,
    access,
    authStore,
    auth,
    passwordChecks,
    captcha,
    domains: new DomainStore(kv),
    bus,
    directory,
    devices,
    deviceGroups: new GroupService(directory, access, devices),
    deviceOps: new DeviceOperations(directory, accountStore, access, devices, connections),
    deviceTransfer: new DeviceTransfer(accountStore, access, devices),
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
    alerts,
    ingestor,
    connections,
    commandStore,
    commands,
    batches,
    commandTemplates: new TemplateStore(kv),
    workModeStore,
    workModes: new WorkModeService(workModeStore, commands, batches, directory),
    monitor,
    geocoder,
    alertAddresses,
  };
  wirePlatformNotices(services);
  return services;
}
