import type { CacheSync } from "../../lib/cluster/cache_sync.ts";
import type { SubscribeOptions } from "../../lib/events/bus.ts";
import type { AccountMoved } from "../accounts/events.ts";
import type { MonitorService } from "./service.ts";

/** Sync area of account moves (tp.sync.accounts: the moved account ids). */
export const ACCOUNT_SYNC = "accounts";

interface MoveEvents {
  on(
    type: "accountMoved",
    handler: (e: AccountMoved) => void | Promise<void>,
    opts: SubscribeOptions,
  ): () => void;
}

/**
 * Cluster mode: an account move changes the ancestry paths live events travel on and the
 * subtrees streams show. The instance that moved it tells the others; each instance (this one
 * too) then re-reads paths, re-subscribes its viewers and renews its streams' filters at once.
 */
export function syncLiveRoutes(bus: MoveEvents, monitor: MonitorService, sync: CacheSync) {
  bus.on("accountMoved", async (e) => {
    sync.publish(ACCOUNT_SYNC, [e.account.id]);
    await monitor.accountsChanged();
  }, { name: "live routes: account moves", durable: false });
  return sync.on(ACCOUNT_SYNC, () => monitor.accountsChanged());
}
