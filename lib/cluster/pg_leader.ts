/**
 * Cluster mode's leadership (issue 23): the instance holding a PostgreSQL session-level advisory
 * lock leads. The lock lives on a dedicated connection (never a pool's), so it is held exactly
 * as long as that session: when the holder's process dies its socket closes, the server ends
 * the session and frees the lock, and another instance's next try (every ~2 s) takes it.
 *
 * A lost connection means not leader at once (the lock went with the session); the instance
 * reconnects and tries again after two intervals, so the others take the lock first (a lone
 * instance leads again ~4 s later). While leading, each tick runs a trivial query, so a connection that
 * died quietly is noticed within a tick or the query timeout. The session also asks the server
 * for short TCP keepalives, so a holder that vanished without closing its socket (a cut
 * network) frees the lock within ~15 s instead of the kernel's two hours.
 */
import pg from "pg";
import { log } from "../log.ts";
import { UnreachableError, withoutPassword } from "../net/unreachable.ts";
import type { Leadership } from "./types.ts";

const leaderLog = log.area("cluster");

/** The leader's advisory lock key ("tp_lead" in ASCII); other locks must use other keys. */
export const LEADER_LOCK_KEY = "0x74705f6c656164";
const LOCK_KEY = BigInt(LEADER_LOCK_KEY).toString();

export interface PgLeadershipOptions {
  /** Between two tries (and liveness checks while leading). */
  intervalMs?: number;
  /** Shown as the session's application_name (pg_stat_activity). */
  instanceId?: string;
}

export class PgLeadership implements Leadership {
  private client?: pg.Client;
  private leading = false;
  private closed = false;
  private failing = false;
  private timer?: ReturnType<typeof setTimeout>;
  private running?: Promise<void>;
  /**
   * A leader whose session broke does not try for the lock again before this time: the others
   * (whose sessions held) take it first, and the broken one does not win it back by racing them.
   */
  private standDownUntil = 0;
  private readonly listeners = new Set<(leader: boolean) => void>();
  private readonly intervalMs: number;

  private constructor(private readonly url: string, private readonly opts: PgLeadershipOptions) {
    this.intervalMs = opts.intervalMs ?? 2_000;
  }

  /**
   * Connects and makes the first try before returning (so a lone instance leads at once);
   * a database that cannot be reached then is an UnreachableError (start-up fails).
   */
  static async start(url: string, opts: PgLeadershipOptions = {}): Promise<PgLeadership> {
    const leadership = new PgLeadership(url, opts);
    try {
      await leadership.connect();
    } catch (e) {
      throw new UnreachableError("PostgreSQL", withoutPassword(url), e);
    }
    await leadership.tick();
    return leadership;
  }

  isLeader(): boolean {
    return this.leading;
  }

  onChange(listener: (leader: boolean) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /** Ends the session (which frees the lock at once, so another instance takes over). */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    await this.running;
    await this.drop();
  }

  /** One try: connect when needed, then take the lock (or check the connection still lives). */
  private async tick(): Promise<void> {
    if (this.closed) return;
    this.running = this.tryOnce();
    await this.running;
    this.running = undefined;
    if (!this.closed) this.timer = setTimeout(() => void this.tick(), this.intervalMs);
  }

  private async tryOnce(): Promise<void> {
    try {
      const client = this.client ?? await this.connect();
      if (this.leading) {
        await client.query("SELECT 1");
        return this.reachable(true);
      }
      if (Date.now() < this.standDownUntil) return this.reachable(true);
      const res = await client.query<{ locked: boolean }>(
        "SELECT pg_try_advisory_lock($1::bigint) AS locked",
        [LOCK_KEY],
      );
      if (res.rows[0]?.locked && client === this.client && !this.closed) this.setLeader(true);
      this.reachable(true);
    } catch (e) {
      this.reachable(false, e);
      await this.drop();
    }
  }

  /** Logs the database going away and coming back once each, not at every try. */
  private reachable(ok: boolean, error?: unknown): void {
    if (ok === !this.failing) return;
    this.failing = !ok;
    if (ok) leaderLog.info("leadership: database reachable again");
    else {
      const why = error instanceof Error ? error.message : String(error);
      leaderLog.warn(`leadership: database connection lost (${why}); retrying every tick`);
    }
  }

  private async connect(): Promise<pg.Client> {
    const client = new pg.Client({
      connectionString: this.url,
      connectionTimeoutMillis: 5_000,
      query_timeout: 5_000,
      keepAlive: true,
      application_name: `tp-leader ${this.opts.instanceId ?? ""}`.trim().slice(0, 63),
    });
    // A connection that ends (server restart, pg_terminate_backend) ends the leadership now,
    // not at the next tick: the lock is already free for others.
    const lost = (error?: unknown) => {
      if (this.client !== client) return;
      if (!this.closed) this.reachable(false, error ?? "connection ended");
      void this.drop();
    };
    client.on("error", lost);
    client.on("end", lost);
    try {
      await client.connect();
      await client.query(
        "SET tcp_keepalives_idle = 5; SET tcp_keepalives_interval = 2; " +
          "SET tcp_keepalives_count = 3",
      );
    } catch (e) {
      await client.end().catch(() => {});
      throw e;
    }
    this.client = client;
    return client;
  }

  private async drop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (this.leading) this.standDownUntil = Date.now() + 2 * this.intervalMs;
    this.setLeader(false);
    if (client) await client.end().catch(() => {});
  }

  private setLeader(leading: boolean): void {
    if (leading === this.leading) return;
    this.leading = leading;
    if (!this.closed) {
      leaderLog.info(leading ? "this instance leads" : "this instance no longer leads");
    }
    for (const listener of this.listeners) {
      try {
        listener(leading);
      } catch (e) {
        leaderLog.error("leadership listener failed", e);
      }
    }
  }
}
