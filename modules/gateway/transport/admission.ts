/**
 * Which device connections may stay open: at most MAX_DEVICE_CONNECTIONS in the whole
 * process (the three TCP ports together, every I/O worker together), so idle sockets can
 * never take the descriptors the HTTP listeners and the store need.
 *
 * Over the cap, an unidentified connection is shed: the newest one (connections that have
 * been waiting longer are devices part-way through logging in, or will meet their login
 * deadline soon anyway) and the new connection is kept. An identified device is never
 * dropped for an unidentified connection: when every other connection of this thread is
 * identified, the new connection is refused.
 */

/** Open connections per thread (one slot per I/O worker; shared memory across workers). */
export interface ConnectionCount {
  /** Int32 slots (a SharedArrayBuffer when workers share it). */
  counts: Int32Array;
  /** This thread's slot. */
  slot: number;
  /** MAX_DEVICE_CONNECTIONS. */
  cap: number;
}

/** A connection as admission sees it: identified once it has a device. */
export interface Admitted {
  device: unknown;
  close(): void;
}

export type Verdict<T> =
  /** Room: keep the new connection. */
  | { keep: true; shed?: undefined }
  /** Over the cap: keep the new connection, close `shed` (the newest unidentified one). */
  | { keep: true; shed: T }
  /** Over the cap and nothing unidentified to shed: close the new connection. */
  | { keep: false };

/** One thread's admission of device connections (shared by its three protocol listeners). */
export class Admission<T extends Admitted> {
  /**
   * Unidentified connections in accept order, newest last. Entries that identified or
   * closed since are skipped when met, and swept out once they are the majority.
   */
  private pending: T[] = [];
  private readonly waiting = new Set<T>();
  /** Sweep when `pending` grows past this (twice its size after the last sweep). */
  private sweepAt = 64;

  constructor(private readonly count: ConnectionCount) {}

  /** Connections open in the whole process. */
  open(): number {
    let n = 0;
    for (let i = 0; i < this.count.counts.length; i++) n += Atomics.load(this.count.counts, i);
    return n;
  }

  /** A connection was accepted; counted until `release`, whatever the verdict. */
  admit(conn: T): Verdict<T> {
    const { counts, slot, cap } = this.count;
    Atomics.add(counts, slot, 1);
    if (this.open() <= cap) {
      this.track(conn);
      return { keep: true };
    }
    const shed = this.newestUnidentified();
    if (!shed) return { keep: false };
    this.track(conn);
    return { keep: true, shed };
  }

  /** A counted connection closed (after `admit`, whatever the verdict). */
  release(conn: T): void {
    Atomics.sub(this.count.counts, this.count.slot, 1);
    this.waiting.delete(conn);
  }

  private track(conn: T): void {
    this.pending.push(conn);
    this.waiting.add(conn);
    if (this.pending.length > this.sweepAt) {
      this.sweep();
      this.sweepAt = Math.max(64, 2 * this.pending.length);
    }
  }

  private newestUnidentified(): T | undefined {
    while (this.pending.length) {
      const conn = this.pending.pop()!;
      if (!this.waiting.delete(conn)) continue; // closed (or shed) since
      if (conn.device === null) return conn;
    }
    return undefined;
  }

  /** Drops closed and identified entries (identified connections never return to pending). */
  private sweep(): void {
    this.pending = this.pending.filter((c) => {
      if (!this.waiting.has(c)) return false;
      if (c.device !== null) this.waiting.delete(c);
      return c.device === null;
    });
  }
}

/** How often at most the shedding summary is logged (the first one after a second). */
const SHED_LOG_EVERY_MS = 10_000;
const SHED_LOG_FIRST_MS = 1_000;

/**
 * Counts connections closed for not identifying in time or for the cap, and logs a summary
 * now and then: under a flood, a line per connection would be thousands of lines a second.
 */
export class ShedLog {
  private readonly counts = { login: 0, shed: 0, refused: 0 };
  private timer: ReturnType<typeof setTimeout> | undefined;
  private lastFlush = 0;

  constructor(
    private readonly log: (line: string) => void,
    private readonly limits: { loginMs: number; connections: ConnectionCount },
  ) {}

  note(kind: "login" | "shed" | "refused"): void {
    this.counts[kind]++;
    if (this.timer !== undefined) return;
    const wait = Math.max(SHED_LOG_FIRST_MS, this.lastFlush + SHED_LOG_EVERY_MS - Date.now());
    this.timer = setTimeout(() => this.flush(), wait);
    Deno.unrefTimer(this.timer);
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private flush(): void {
    this.timer = undefined;
    this.lastFlush = Date.now();
    const { login, shed, refused } = this.counts;
    const parts: string[] = [];
    if (login) {
      parts.push(
        `closed ${login} that did not identify within ${this.limits.loginMs / 1000} s`,
      );
    }
    if (shed) parts.push(`shed ${shed} unidentified`);
    if (refused) parts.push(`refused ${refused} new (all others identified)`);
    if (shed || refused) parts.push(`at most ${this.limits.connections.cap} allowed`);
    this.log(`gateway: device connections: ${parts.join("; ")}`);
    this.counts.login = this.counts.shed = this.counts.refused = 0;
  }
}
