/**
 * Device sessions across a cluster's instances (cluster mode only; single mode has none).
 *
 * - Each instance writes a heartbeat every 3 s; one silent for 10 s is gone, and its sessions
 *   never block anything (the key also expires by itself).
 * - The store records which instance holds each device's connection (device → instance, since),
 *   written when a device logs in and deleted when its link closes there. The writes are queued
 *   and flushed in batches, so thousands of logins after a fail-over cost a few store round
 *   trips, not one each on the login path.
 * - A login of a device that a live instance elsewhere holds asks that instance (request on
 *   `tp.session.close.<instanceId>`) to close its connection, under the same takeover rule as
 *   within one process (a connection heard within DEVICE_TAKEOVER_SECONDS keeps a device
 *   against a login without credentials; a credential always wins). A holder that does not
 *   answer in time never blocks the login.
 */
import { log as logger } from "../../../lib/log.ts";
import { type Cluster, SUBJECTS } from "../../../lib/cluster/types.ts";
import type { DeviceSessions } from "../types.ts";
import type { DeviceSession, SessionStore } from "./store_sessions.ts";

export interface SessionTimes {
  heartbeatMs: number;
  /** An instance whose last heartbeat is this old is gone. */
  staleMs: number;
  /** How long login and close records wait to be written together. */
  flushMs: number;
  /** How long a login waits for the old holder to answer. */
  closeRequestMs: number;
}

export const SESSION_TIMES: SessionTimes = {
  heartbeatMs: 3000,
  staleMs: 10_000,
  flushMs: 100,
  closeRequestMs: 2000,
};

/**
 * What the holder is asked: close the device's connection unless it was heard within
 * `takeoverMs` (0: close it). With `ask` it closes nothing and only says whether the connection
 * is authenticated and was heard within `takeoverMs` (a JT/T 808 registration elsewhere).
 */
export interface CloseRequest {
  imei: string;
  takeoverMs: number;
  ask?: "credentialed";
}

/** The holder's answer: closed (or it had none), or kept because it was heard `heardAgoMs` ago. */
export interface CloseAnswer {
  closed: boolean;
  heardAgoMs?: number;
  /** To `ask`: its connection is authenticated and was heard within the window. */
  credentialed?: boolean;
}

/** A login refused because a live instance keeps the device. */
export interface HeldElsewhere {
  instanceId: string;
  heardAgoMs: number;
}

/** The local side of a close request (ConnectionRegistry). */
export type LocalCloser = (request: CloseRequest) => CloseAnswer;

/** A queued session write: the login time, or RELEASE. */
const RELEASE = -1;
/** Look-ups of session records wait this long to be read together. */
const LOOKUP_BATCH_MS = 2;

const sessionLog = logger.area("gateway");
const encoder = new TextEncoder();
const decoder = new TextDecoder();
const encode = (v: unknown) => encoder.encode(JSON.stringify(v));
const decode = <T>(b: Uint8Array): T => JSON.parse(decoder.decode(b)) as T;

export class SessionRegistry implements DeviceSessions {
  readonly instanceId: string;
  /** Every instance's last heartbeat as last read (refreshed with each of ours). */
  private heartbeats = new Map<string, number>();
  /** Session writes not yet flushed: imei → login time or RELEASE (the last one counts). */
  private queued = new Map<string, number>();
  private flushTimer: ReturnType<typeof setTimeout> | null = null;
  private flushing: Promise<void> = Promise.resolve();
  private lookups: {
    imei: string;
    done: (s: DeviceSession | null) => void;
    fail: (e: unknown) => void;
  }[] = [];
  private lookupTimer: ReturnType<typeof setTimeout> | null = null;
  private beatTimer: ReturnType<typeof setInterval> | null = null;
  private unreply: (() => void) | null = null;

  constructor(
    private readonly store: SessionStore,
    private readonly cluster: Pick<Cluster, "instanceId" | "link">,
    private readonly times: SessionTimes = SESSION_TIMES,
  ) {
    this.instanceId = cluster.instanceId;
  }

  /** Starts the heartbeats and answers close requests for this instance's devices. */
  start(closer: LocalCloser): void {
    if (this.beatTimer) return;
    this.unreply = this.cluster.link.reply(
      `${SUBJECTS.sessionClose}.${this.instanceId}`,
      (data) => Promise.resolve(encode(closer(decode<CloseRequest>(data)))),
    );
    this.beatTimer = setInterval(() => void this.beat(), this.times.heartbeatMs);
    // Heartbeats alone never keep a process (a script that composed in cluster mode) running.
    Deno.unrefTimer(this.beatTimer);
    void this.beat();
  }

  /** Writes our heartbeat and reads everyone's. */
  async beat(): Promise<void> {
    try {
      await this.store.beat(this.instanceId, Date.now(), this.times.staleMs * 3);
      this.heartbeats = await this.store.heartbeats();
    } catch (e) {
      sessionLog.warn(`session heartbeat failed: ${(e as Error).message}`);
    }
  }

  instanceLive(instanceId: string): boolean {
    if (instanceId === this.instanceId) return true;
    const at = this.heartbeats.get(instanceId);
    return at !== undefined && Date.now() - at < this.times.staleMs;
  }

  /** How many instances are alive, this one included (per-process limits share by it). */
  liveInstances(): number {
    let n = 1;
    for (const id of this.heartbeats.keys()) {
      if (id !== this.instanceId && this.instanceLive(id)) n++;
    }
    return n;
  }

  /** Whether any instance but this one is alive (else nothing needs to be looked up). */
  private othersLive(): boolean {
    return this.liveInstances() > 1;
  }

  async holderElsewhere(imei: string): Promise<string | null> {
    if (!this.othersLive()) return null;
    const queued = this.queued.get(imei);
    if (queued !== undefined && queued !== RELEASE) return null;
    const session = await this.lookUp(imei);
    if (!session || session.instanceId === this.instanceId) return null;
    return this.instanceLive(session.instanceId) ? session.instanceId : null;
  }

  /**
   * The live instance holding each of the devices, this one included (one wide read for many
   * devices: the motion leader's pass over unheld devices). Devices with no session, or whose
   * holder is gone, are left out.
   */
  async liveHolders(imeis: readonly string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    for (const imei of imeis) {
      const queued = this.queued.get(imei);
      if (queued !== undefined && queued !== RELEASE) out.set(imei, this.instanceId);
    }
    const rest = imeis.filter((imei) => !out.has(imei));
    if (!rest.length) return out;
    const found = await this.store.sessions(rest);
    rest.forEach((imei, i) => {
      const s = found[i];
      if (s && this.instanceLive(s.instanceId)) out.set(imei, s.instanceId);
    });
    return out;
  }

  /**
   * Before a login is accepted here: closes the device's connection on the live instance that
   * holds it, unless that one keeps it under the takeover rule (then it is returned, and the
   * login is refused). `takeoverMs` 0: the login has a credential and always wins.
   */
  async admit(imei: string, takeoverMs: number): Promise<HeldElsewhere | null> {
    const asked = await this.askHolder({ imei, takeoverMs });
    if (!asked || asked.answer.closed) return null;
    return { instanceId: asked.holder, heardAgoMs: asked.answer.heardAgoMs ?? 0 };
  }

  /**
   * Whether a live instance elsewhere holds the device with an authenticated connection heard
   * within `takeoverMs` (then a JT/T 808 registration here is refused); nothing is closed.
   */
  async credentialedElsewhere(imei: string, takeoverMs: number): Promise<HeldElsewhere | null> {
    const asked = await this.askHolder({ imei, takeoverMs, ask: "credentialed" });
    if (!asked?.answer.credentialed) return null;
    return { instanceId: asked.holder, heardAgoMs: asked.answer.heardAgoMs ?? 0 };
  }

  /** Sends `request` to the live instance holding the device; null when none holds or answers. */
  private async askHolder(
    request: CloseRequest,
  ): Promise<{ holder: string; answer: CloseAnswer } | null> {
    const { imei } = request;
    const holder = await this.holderElsewhere(imei).catch((e) => {
      sessionLog.warn(`${imei}: session not looked up (${(e as Error).message})`);
      return null;
    });
    if (!holder) return null;
    try {
      const answer = decode<CloseAnswer>(
        await this.cluster.link.request(
          `${SUBJECTS.sessionClose}.${holder}`,
          encode(request),
          this.times.closeRequestMs,
        ),
      );
      return { holder, answer };
    } catch (e) {
      // Gone without a word, or unreachable: it must not block the device.
      sessionLog.info(`${imei}: its holder ${holder} did not answer (${(e as Error).message})`);
      return null;
    }
  }

  /** The device's connection is now here. */
  claimed(imei: string): void {
    this.queue(imei, Date.now());
  }

  /** The device's connection here closed. */
  released(imei: string): void {
    this.queue(imei, RELEASE);
  }

  private queue(imei: string, op: number): void {
    this.queued.set(imei, op);
    this.flushTimer ??= setTimeout(() => void this.flush(), this.times.flushMs);
  }

  /** Writes the queued session records (also called directly: tests, stop). */
  flush(): Promise<void> {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    const batch = this.queued;
    this.queued = new Map();
    this.flushing = this.flushing.then(() => this.write(batch));
    return this.flushing;
  }

  private async write(batch: Map<string, number>): Promise<void> {
    if (!batch.size) return;
    const claims: [string, number][] = [], releases: string[] = [];
    for (const [imei, op] of batch) {
      if (op === RELEASE) releases.push(imei);
      else claims.push([imei, op]);
    }
    try {
      await this.store.claim(claims, this.instanceId);
      await this.store.release(releases, this.instanceId);
    } catch (e) {
      sessionLog.warn(`session records not written (${(e as Error).message}); retrying`);
      // Again with the next flush, unless a newer write for the device was queued meanwhile.
      for (const [imei, op] of batch) if (!this.queued.has(imei)) this.queue(imei, op);
    }
  }

  /** Reads session records in small batches (logins arrive in bursts after a fail-over). */
  private lookUp(imei: string): Promise<DeviceSession | null> {
    return new Promise((done, fail) => {
      this.lookups.push({ imei, done, fail });
      this.lookupTimer ??= setTimeout(() => {
        this.lookupTimer = null;
        const batch = this.lookups;
        this.lookups = [];
        this.store.sessions(batch.map((l) => l.imei)).then(
          (found) => batch.forEach((l, i) => l.done(found[i])),
          (e) => batch.forEach((l) => l.fail(e)),
        );
      }, LOOKUP_BATCH_MS);
    });
  }

  /**
   * Stops the heartbeats and close answers. `leave`: a clean stop, whose queued records are
   * written and whose heartbeat is deleted so its sessions count as gone at once; without it
   * the instance just falls silent, as a killed one does.
   */
  async stop(leave = true): Promise<void> {
    if (this.beatTimer) clearInterval(this.beatTimer);
    this.beatTimer = null;
    this.unreply?.();
    this.unreply = null;
    if (!leave) {
      if (this.flushTimer) clearTimeout(this.flushTimer);
      this.flushTimer = null;
      return;
    }
    await this.flush();
    await this.store.forget(this.instanceId).catch(() => {});
  }
}
