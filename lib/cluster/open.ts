/**
 * Picks the process's Cluster from the configuration (issue 23): no DATABASE_URL is single mode
 * (in-process link, always the leader); DATABASE_URL with NATS_URL is cluster mode (NatsLink
 * and the PostgreSQL advisory-lock leadership). lib/config.ts already refused one without the
 * other. A service unreachable at start-up is an UnreachableError (main.ts: one line, exit 2).
 */
import type { Config } from "../config.ts";
import { log } from "../log.ts";
import { withoutPassword } from "../net/unreachable.ts";
import { guardStraySocketResets } from "../net/stray_socket_errors.ts";
import { newInstanceId, singleCluster } from "./local.ts";
import type { Cluster, Leadership } from "./types.ts";

export async function openCluster(
  config: Pick<Config, "DATABASE_URL" | "NATS_URL">,
  instanceId: string = newInstanceId(),
): Promise<Cluster> {
  if (!config.DATABASE_URL || !config.NATS_URL) return { ...singleCluster(), instanceId };
  // Loaded only here: single mode starts without the NATS and pg clients (~50 ms).
  const [{ NatsLink }, { PgLeadership }] = await Promise.all([
    import("./nats_link.ts"),
    import("./pg_leader.ts"),
  ]);
  // Their sockets can raise a reset after dropping its listeners: not a reason to die.
  guardStraySocketResets();
  const link = await NatsLink.connect(config.NATS_URL, { name: `tp ${instanceId}` });
  let leader: Leadership;
  try {
    leader = await PgLeadership.start(config.DATABASE_URL, { instanceId });
  } catch (e) {
    await link.close();
    throw e;
  }
  log.area("cluster").info(
    `cluster mode: instance ${instanceId}, PostgreSQL ${withoutPassword(config.DATABASE_URL)}, ` +
      `NATS ${withoutPassword(config.NATS_URL)}`,
  );
  return { mode: "cluster", instanceId, link, leader };
}

/** Closes what openCluster opened (the leadership first, so another instance takes over). */
export async function closeCluster(cluster: Cluster): Promise<void> {
  await cluster.leader.close();
  await cluster.link.close();
}
