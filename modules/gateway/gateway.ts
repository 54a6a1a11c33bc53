import type { Config } from "../../lib/config.ts";
import type { CommandService } from "../commands/service.ts";
import type { DeviceDirectory } from "../devices/directory.ts";
import type { EventBus } from "./bus.ts";
import type { ConnectionRegistry } from "./connections.ts";
import type { Ingestor } from "./ingest.ts";
import { createOsmAndHandler } from "./osmand_server.ts";
import { gt06 } from "./protocols/gt06/index.ts";
import { h02 } from "./protocols/h02/index.ts";
import { jt808 } from "./protocols/jt808/index.ts";
import { startTcpListener, type TcpListenerHandle } from "./tcp_server.ts";

export interface GatewayDeps {
  config: Pick<
    Config,
    "HOSTNAME" | "GT06_PORT" | "JT808_PORT" | "H02_PORT" | "OSMAND_PORT" | "DEVICE_IDLE_SECONDS"
  >;
  directory: DeviceDirectory;
  ingestor: Ingestor;
  connections: ConnectionRegistry;
  bus: EventBus;
  commands: CommandService;
  idleMs?: number;
  log?: (m: string) => void;
}

export interface GatewayHandle {
  ports: { gt06: number; jt808: number; h02: number; osmand: number };
  close(): Promise<void>;
}

/** Starts every device listener: three TCP protocols and OsmAnd over HTTP. */
export function startGateway(deps: GatewayDeps): GatewayHandle {
  const common = {
    hostname: deps.config.HOSTNAME,
    directory: deps.directory,
    ingestor: deps.ingestor,
    connections: deps.connections,
    bus: deps.bus,
    idleMs: deps.idleMs ?? deps.config.DEVICE_IDLE_SECONDS * 1000,
    log: deps.log,
    onCommandReply: (
      conn: Parameters<CommandService["onReply"]>[0],
      reply: { text: string; commandRef?: number; success?: boolean },
    ) => void deps.commands.onReply(conn, reply).catch(() => {}),
    onIdentified: (conn: Parameters<CommandService["onConnected"]>[0]) =>
      void deps.commands.onConnected(conn).catch(() => {}),
  };
  const tcp: Record<"gt06" | "jt808" | "h02", TcpListenerHandle> = {
    gt06: startTcpListener({ ...common, protocol: gt06, port: deps.config.GT06_PORT }),
    jt808: startTcpListener({ ...common, protocol: jt808, port: deps.config.JT808_PORT }),
    h02: startTcpListener({ ...common, protocol: h02, port: deps.config.H02_PORT }),
  };
  const osmand = Deno.serve(
    { hostname: deps.config.HOSTNAME, port: deps.config.OSMAND_PORT, onListen: () => {} },
    createOsmAndHandler(deps),
  );
  return {
    ports: {
      gt06: tcp.gt06.port,
      jt808: tcp.jt808.port,
      h02: tcp.h02.port,
      osmand: (osmand.addr as Deno.NetAddr).port,
    },
    async close() {
      for (const l of Object.values(tcp)) l.close();
      deps.connections.closeAll();
      await osmand.shutdown();
      await deps.ingestor.close();
    },
  };
}
