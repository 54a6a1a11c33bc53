/**
 * Tracking Platform: one process serving the console (pages + API + assets), the device
 * gateway (GT06, JT/T 808, H02 over TCP; OsmAnd over HTTP) and the scheduled jobs. It opens
 * the store, builds the modules through the composition root (app/compose.ts: the domain
 * event bus, the position pipeline of app/position_pipeline.ts), then starts the gateway,
 * the HTTP app (app/app.ts) and the jobs. docs/architecture.md draws the whole.
 */
import { createApp } from "./app/app.ts";
import { type Config, ConfigError, loadConfig } from "./lib/config.ts";
import { openBackend } from "./lib/kv/open.ts";
import { closeCluster, openCluster } from "./lib/cluster/open.ts";
import { retainPositions } from "./lib/kv/retention.ts";
import { UnreachableError } from "./lib/net/unreachable.ts";
import {
  defaultDeviceConnections,
  descriptorReserve,
  raiseDescriptorLimit,
} from "./lib/net/fd_limits.ts";
import { type KeptServer, serveKept } from "./lib/net/kept_server.ts";
import { compose } from "./app/compose.ts";
import { ensureAdministrator } from "./modules/accounts/bootstrap.ts";
import { mountPages } from "./routes/mount.tsx";
import { startGateway } from "./modules/gateway/gateway.ts";
import { scheduleJobs } from "./modules/system/jobs.ts";
import { warmUpPlaybackJson } from "./modules/positions/json.ts";
import { log as logger } from "./lib/log.ts";
import { startAttachmentServer } from "./modules/video/attachment_server.ts";
import { startMediaListener } from "./modules/video/media/mod.ts";
import { portError } from "./modules/gateway/transport/listeners.ts";

const mainLog = logger.area("main");

export interface RunningServer {
  port: number;
  gatewayPorts: { gt06: number; jt808: number; h02: number; osmand: number };
  shutdown(): Promise<void>;
}

export async function startServer(
  config: Config,
  opts: { jobs: boolean } = { jobs: true },
  log: (line: string) => void = mainLog.info,
): Promise<RunningServer> {
  logger.setLevel(config.LOG_LEVEL);
  // Single mode: the KV file and the in-process link. Cluster mode (DATABASE_URL + NATS_URL):
  // PostgreSQL and NATS, both reached before anything else starts (UnreachableError if not).
  const backend = await openBackend(config);
  const cluster = await openCluster(config).catch(async (e) => {
    await backend.close();
    throw e;
  });
  const services = await compose(backend.kv, config, cluster);
  const retention = await retainPositions(backend, cluster.leader, config.POSITION_RETENTION_DAYS);
  const admin = await ensureAdministrator(services.accountStore, config.ADMIN_PASSWORD);
  if (admin.generatedPassword) {
    // Warn, not info: shown once, it must not be lost to LOG_LEVEL=warn.
    mainLog.warn(
      `First start: created administrator "admin" with password: ${admin.generatedPassword}`,
    );
    mainLog.warn(
      "This password is shown only once. Change it after logging in (Settings → Change password).",
    );
  }
  const maxConnections = deviceConnectionCap(config, log);
  const gateway = await startGateway({
    ...services,
    config,
    maxConnections,
    linkMetrics: services.metrics.gateway.link,
  });
  let media, attachments;
  try {
    media = startMediaListener(services.mediaHub, config.JT1078_PORT, {
      hostname: config.HOSTNAME,
    });
  } catch (e) {
    await gateway.close();
    throw portError(e, "JT1078_PORT", config.JT1078_PORT);
  }
  try {
    attachments = startAttachmentServer(
      { hostname: config.HOSTNAME, port: config.JT_ATTACHMENT_PORT },
      services.video.events,
    );
  } catch (e) {
    await gateway.close();
    await media.close();
    throw portError(e, "JT_ATTACHMENT_PORT", config.JT_ATTACHMENT_PORT);
  }
  services.video.live.startIdleSweep();
  await services.video.downloads.recover();
  const app = createApp(services, await mountPages(services), () => backend.health());
  warmUpPlaybackJson();
  let server: KeptServer;
  try {
    server = serveKept(
      { name: "console", port: config.PORT, hostname: config.HOSTNAME, log },
      app.fetch,
    );
  } catch (e) {
    await gateway.close();
    await attachments.close();
    await media.close();
    if (!(e instanceof Deno.errors.AddrInUse)) throw e;
    throw new Deno.errors.AddrInUse(`PORT ${config.PORT} is already in use by another process`);
  }
  const port = server.addr.port;
  if (opts.jobs) scheduleJobs(services);
  log(
    `Tracking Platform listening on http://${
      config.HOSTNAME === "0.0.0.0" ? "localhost" : config.HOSTNAME
    }:${port}`,
  );
  const g = gateway.ports;
  log(
    `Device gateway: GT06 ${g.gt06}, JT/T 808 ${g.jt808}, H02 ${g.h02} (TCP, ${gateway.io} sockets), ` +
      `OsmAnd ${g.osmand} (HTTP)`,
  );
  log(`Video: JT/T 1078 media ${media.port}, T/JSATL12 attachments ${attachments.port} (TCP)`);
  return {
    port,
    gatewayPorts: gateway.ports,
    async shutdown() {
      await gateway.close();
      await attachments.close();
      await media.close();
      services.mediaHub.dispose();
      services.video.live.stopIdleSweep();
      // After the gateway: the last commits' points are analysed and written.
      await services.motion.close();
      await services.sensorRecorder.stop();
      await services.notices.flushCounts().catch(() => {});
      services.commands.stop();
      services.monitor.streams.closeAll();
      await server.shutdown();
      await services.blobs.close();
      retention?.stop();
      await closeCluster(cluster);
      await backend.close();
    },
  };
}

/**
 * Raises the descriptor limit to the hard limit, logs both, and returns the device
 * connection cap: MAX_DEVICE_CONNECTIONS, or the limit less a reserve for HTTP and files.
 */
function deviceConnectionCap(config: Config, log: (line: string) => void): number {
  const limits = raiseDescriptorLimit();
  const fallback = defaultDeviceConnections(limits);
  const cap = config.MAX_DEVICE_CONNECTIONS ?? fallback;
  if (!limits) {
    log(`File descriptors: limit unknown here; device connections at most ${cap}`);
    return cap;
  }
  const raised = limits.raisedFrom !== undefined ? ` (raised from ${limits.raisedFrom})` : "";
  const failed = limits.error ? ` (raising it failed: ${limits.error})` : "";
  log(
    `File descriptors: soft limit ${limits.soft}${raised}${failed}, hard limit ${limits.hard}; ` +
      `device connections at most ${cap}` +
      (config.MAX_DEVICE_CONNECTIONS === undefined
        ? ` (${descriptorReserve(limits.soft)} kept for HTTP, the store and files)`
        : ""),
  );
  if (cap > fallback) {
    mainLog.warn(
      `Warning: MAX_DEVICE_CONNECTIONS ${cap} leaves fewer than ` +
        `${descriptorReserve(limits.soft)} descriptors for HTTP and files; ` +
        `at ${limits.soft} open files the console stops accepting until connections close`,
    );
  }
  return cap;
}

if (import.meta.main) {
  let config: Config;
  try {
    config = loadConfig(Deno.env.toObject());
  } catch (e) {
    if (e instanceof ConfigError) {
      mainLog.error(e.message);
      Deno.exit(2);
    }
    throw e;
  }
  let server: RunningServer;
  try {
    server = await startServer(config);
  } catch (e) {
    // A port held by another process (often a second instance), or PostgreSQL / NATS out of
    // reach: say which, without a trace.
    if (!(e instanceof Deno.errors.AddrInUse) && !(e instanceof UnreachableError)) throw e;
    mainLog.error(`Cannot start: ${e.message}.`);
    Deno.exit(2);
  }
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    Deno.addSignalListener(signal, async () => {
      await server.shutdown();
      Deno.exit(0);
    });
  }
}
