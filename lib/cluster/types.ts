/**
 * Cluster mode's seams (issue 23). With no DATABASE_URL the product is one process: the store is
 * the Deno KV file, the link is in-process (LocalLink) and this instance leads every job. With
 * DATABASE_URL and NATS_URL, N identical instances share PostgreSQL (the same Deno.Kv-shaped
 * store over per-module schemas, lib/kv/pg) and talk over NATS (NatsLink).
 *
 * Modules never see NATS or PostgreSQL: they get a `Cluster` from app/compose.ts and use
 *  - `link` to tell other instances something (subjects below) or ask the one that holds a
 *    device (request/reply), and
 *  - `leader` for in-memory sweeps that must run on one instance only.
 * Cron jobs do not need the leader: each slot is claimed in the store (one atomic check-and-set),
 * which is exactly-once in both modes.
 */

/** How this process runs. */
export type ClusterMode = "single" | "cluster";

/** A message handler: the payload as sent, and the subject it came on. */
export type LinkHandler = (data: Uint8Array, subject: string) => void;

/**
 * Messages between instances. Subjects are dot-separated tokens; `*` matches one token and `>`
 * the rest (NATS rules, implemented by LocalLink too). Core messages are at-most-once: use them
 * where a lost message only means a stale view (live events) or is retried (command routing).
 */
export interface ClusterLink {
  /** Publishes to every subscriber of `subject` on every instance, this one included. */
  publish(subject: string, data: Uint8Array): void;
  /** Subscribes; returns the unsubscribe. */
  subscribe(subject: string, handler: LinkHandler): () => void;
  /** Asks whoever answers `subject` (one of them); rejects with LinkTimeout after timeoutMs. */
  request(subject: string, data: Uint8Array, timeoutMs: number): Promise<Uint8Array>;
  /** Answers requests on `subject`; a thrown error is sent back as a LinkRemoteError. */
  reply(subject: string, handler: (data: Uint8Array) => Promise<Uint8Array>): () => void;
  /** Resolves once the messaging server has seen everything sent before, subscriptions too. */
  flush(): Promise<void>;
  /** "up" when messages flow (always for LocalLink). */
  state(): "up" | "down";
  close(): Promise<void>;
}

/** No instance answered in time (or none subscribes to the subject). */
export class LinkTimeout extends Error {
  constructor(subject: string) {
    super(`no answer on ${subject}`);
    this.name = "LinkTimeout";
  }
}

/** The answering instance threw; `message` is its error message. */
export class LinkRemoteError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "LinkRemoteError";
  }
}

/**
 * One leader among the instances, for in-memory sweeps (idle video streams, offline checks…).
 * Single mode: always the leader. Cluster mode: the instance holding a PostgreSQL session-level
 * advisory lock; when it dies, its connection ends, the lock frees and another takes over within
 * a few seconds.
 */
export interface Leadership {
  isLeader(): boolean;
  /** Called with true when this instance becomes leader and false when it stops being one. */
  onChange(listener: (leader: boolean) => void): () => void;
  close(): Promise<void>;
}

/** What a module gets to run in a cluster. */
export interface Cluster {
  mode: ClusterMode;
  /** Unique per process start (a restarted instance is a new one): `<hostname>-<pid>-<random>`. */
  instanceId: string;
  link: ClusterLink;
  leader: Leadership;
}

/**
 * Subjects in use (one place, so two modules never collide). `<…>` are tokens filled in by the
 * module; ids are url-safe (no dots or spaces).
 */
export const SUBJECTS = {
  /** Live events (position, status, alert) of a device, under its owner's ancestry path:
   *  `tp.live.<rootId>.<…>.<ownerId>`; a viewer of account X subscribes `tp.live.<path of X>.>`
   *  and `tp.live.<path of X>`. */
  live: "tp.live",
  /** Cache invalidation between instances: `tp.sync.<area>` (e.g. devices, accounts, zones). */
  sync: "tp.sync",
  /** Commands to the instance holding a device: `tp.cmd.<instanceId>` (request/reply). */
  command: "tp.cmd",
  /** Closing a device's stale session on its old instance: `tp.session.close.<instanceId>`. */
  sessionClose: "tp.session.close",
  /** Media (HLS playlists/segments) held by one instance: `tp.media.<instanceId>` (request). */
  media: "tp.media",
  /** Console pop-ups (pushed alerts) for every instance's feed: `tp.popups`. */
  popups: "tp.popups",
  /** A device's live motion analysis on the instance analysing it: `tp.motion.<instanceId>`
   *  (request: its open segments, unflushed ones and running days; a status change). */
  motion: "tp.motion",
  /** Sensor readings not appended yet, on the instance holding the device:
   *  `tp.sensors.<instanceId>` (request). */
  sensors: "tp.sensors",
} as const;
