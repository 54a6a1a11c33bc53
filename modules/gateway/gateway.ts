import type { Config } from "../../lib/config.ts";
import { type KeptServer, serveKept } from "../../lib/net/kept_server.ts";
import type { DeviceDirectory } from "../devices/directory.ts";
import type { Publisher } from "../../lib/events/bus.ts";
import type { GatewayEvent } from "./events.ts";
import type { CommandDesk, VideoDesk } from "./types.ts";
import type { ConnectionRegistry } from "./link/connections.ts";
import { DeviceIdentity } from "./link/device_identity.ts";
import type { GatewayStore } from "./link/store.ts";
import type { Ingestor } from "./ingest/ingest.ts";
import { createOsmAndHandler } from "./transport/osmand_server.ts";
import { portError } from "./transport/listeners.ts";
import { serveDevices } from "./transport/serving.ts";
import { log as logger, type LogLevel } from "../../lib/log.ts";
import { type LinkMetrics, linkMetrics } from "./metrics.ts";

export interface GatewayDeps {
  config: Pick<
    Config,
    | "HOSTNAME"
    | "GT06_PORT"
    | "JT808_PORT"
    | "H02_PORT"
    | "OSMAND_PORT"
    | "DEVICE_IDLE_SECONDS"
    | "DEVICE_LOGIN_SECONDS"
    | "DEVICE_TAKEOVER_SECONDS"
    | "JT808_AUTH"
    | "GATEWAY_WORKERS"
    | "GATEWAY_IO"
  >;
  /** The gateway's own keys (JT/T 808 auth codes). */
  gatewayStore: GatewayStore;
  directory: DeviceDirectory;
  ingestor: Ingestor;
  connections: ConnectionRegistry;
  bus: Publisher<GatewayEvent>;
  commands: CommandDesk;
  /** The video module (JT/T 1078 answers, alarm media); absent in tests without video. */
  videoDesk?: VideoDesk;
  idleMs?: number;
  /** MAX_DEVICE_CONNECTIONS in force (the configured value or the descriptor-based default). */
  maxConnections: number;
  /** The registered link series (app/compose.ts); unregistered ones when absent (tests). */
  linkMetrics?: LinkMetrics;
  log?: (m: string, level?: LogLevel) => void;
}

export interface GatewayHandle {
  ports: { gt06: number; jt808: number; h02: number; osmand: number };
  /** The transport serving the TCP device sockets. */
  io: "epoll" | "deno";
  close(): Promise<void>;
}

/**
 * Starts every device listener: the three TCP protocols (in I/O workers when configured),
 * OsmAnd over HTTP.
 */
export async function startGateway(deps: GatewayDeps): Promise<GatewayHandle> {
  const gatewayLog = logger.area("gateway");
  const log = deps.log ?? ((m: string, level: LogLevel = "info") => gatewayLog[level](m));
  const metrics = deps.linkMetrics ?? linkMetrics();
  const tcp = await serveDevices({
    hostname: deps.config.HOSTNAME,
    ports: {
      gt06: deps.config.GT06_PORT,
      jt808: deps.config.JT808_PORT,
      h02: deps.config.H02_PORT,
    },
    workers: deps.config.GATEWAY_WORKERS,
    io: deps.config.GATEWAY_IO,
    idleMs: deps.idleMs ?? deps.config.DEVICE_IDLE_SECONDS * 1000,
    loginMs: deps.config.DEVICE_LOGIN_SECONDS * 1000,
    maxConnections: deps.maxConnections,
    directory: deps.directory,
    ingestor: deps.ingestor,
    connections: deps.connections,
    identity: new DeviceIdentity(
      deps.gatewayStore,
      deps.config.JT808_AUTH,
      deps.config.DEVICE_TAKEOVER_SECONDS * 1000,
    ),
    bus: deps.bus,
    log,
    metrics,
    onCommandReply: (conn, reply) => void deps.commands.onReply(conn, reply).catch(() => {}),
    onIdentified: (conn) => void deps.commands.onConnected(conn).catch(() => {}),
    video: deps.videoDesk,
  });
  let osmand: KeptServer;
  try {
    osmand = serveKept(
      { name: "OsmAnd", hostname: deps.config.HOSTNAME, port: deps.config.OSMAND_PORT, log },
      createOsmAndHandler({ ...deps, log, counters: metrics.protocols.osmand }),
    );
  } catch (e) {
    await tcp.close();
    throw portError(e, "OSMAND_PORT", deps.config.OSMAND_PORT);
  }
  return {
    ports: { ...tcp.ports, osmand: osmand.addr.port },
    io: tcp.io,
    async close() {
      await tcp.close();
      deps.connections.closeAll();
      await deps.connections.leave();
      await osmand.shutdown();
      await deps.ingestor.close();
    },
  };
}
