/**
 * One simulated tracker at run time: a clock that advances its vehicle every interval and a
 * connection that logs in, reports, answers commands, and reconnects when it drops (on the
 * vehicle's say-so or the server's). Reports made while offline are kept and uploaded after
 * the next login, as real trackers do with their blind-area memory.
 */
import type { ProtocolName } from "../devices/models.ts";
import { Gt06Link } from "./devices/gt06.ts";
import { H02Link } from "./devices/h02.ts";
import { Jt808Link } from "./devices/jt808.ts";
import type { VideoTerminalOptions } from "./devices/jt808_video.ts";
import type { DeviceLink, LinkEvent } from "./devices/link.ts";
import { osmandCommand, type OsmAndForm, osmandJson, osmandQuery } from "./devices/osmand.ts";
import type { DeviceFix } from "./fix.ts";
import type { Rng } from "./rng.ts";
import type { Vehicle, VehicleEvent } from "./vehicle.ts";
import { writeAll } from "../../lib/net/write_all.ts";

export interface SimStats {
  /** Devices logged in right now (OsmAnd: whose last request succeeded). */
  connected: number;
  framesSent: number;
  /** Server acknowledgements received (login, heartbeat, alarm, JT/T 808 0x8001…). */
  acks: number;
  commands: number;
  replies: number;
  /** Logins after the first one. */
  reconnects: number;
  /** Connections the server closed before accepting the login (device not imported?). */
  refused: number;
  errors: number;
  alarms: number;
}

export function emptyStats(): SimStats {
  return {
    connected: 0,
    framesSent: 0,
    acks: 0,
    commands: 0,
    replies: 0,
    reconnects: 0,
    refused: 0,
    errors: 0,
    alarms: 0,
  };
}

export interface DeviceOptions {
  imei: string;
  protocol: ProtocolName;
  host: string;
  port: number;
  intervalMs: number;
  vehicle: Vehicle;
  rng: Rng;
  stats: SimStats;
  /** Problems worth showing (refusals, connection errors). */
  onProblem?: (imei: string, message: string) => void;
  /** Every command received, with the answer given. */
  onCommand?: (imei: string, text: string, reply: string | null) => void;
  osmandForm?: OsmAndForm;
  /** A heartbeat every this many reports while the ignition is on (default 10). */
  heartbeatEvery?: number;
  /** How long to wait for the login to be accepted. */
  loginTimeoutMs?: number;
  /** JT/T 808 terminals with a dashcam (`--video`): JT/T 1078 answers and ADAS alarms. */
  video?: VideoTerminalOptions;
}

/** Reports kept while offline; the oldest are dropped beyond this. */
const MAX_BACKLOG = 200;

function linkFor(
  protocol: Exclude<ProtocolName, "osmand">,
  imei: string,
  video?: VideoTerminalOptions,
): DeviceLink {
  if (protocol === "gt06") return new Gt06Link(imei);
  if (protocol === "jt808") return new Jt808Link(imei, video);
  return new H02Link(imei);
}

export class SimulatedDevice {
  readonly imei: string;
  private readonly abort = new AbortController();
  private conn: Deno.Conn | null = null;
  private ready = false;
  private logins = 0;
  private backlog: DeviceFix[] = [];
  private reconnectAt = 0;
  private tick = 0;
  /** The ignition at the previous report (null before the first): a change swipes the card. */
  private lastAcc: boolean | null = null;
  private writing: Promise<void> = Promise.resolve();
  private wake: (() => void) | null = null;
  private loops: Promise<void>[] = [];
  private readonly link: DeviceLink | null;
  /** What happened while the vehicle was advanced for a command answer, for the next report. */
  private carried: VehicleEvent[] = [];

  constructor(private readonly opts: DeviceOptions) {
    this.imei = opts.imei;
    this.link = opts.protocol === "osmand" ? null : linkFor(opts.protocol, opts.imei, opts.video);
  }

  get stopped(): boolean {
    return this.abort.signal.aborted;
  }

  get online(): boolean {
    return this.ready;
  }

  start(): void {
    const first = this.opts.rng.range(0, Math.min(this.opts.intervalMs, 5_000));
    this.loops.push(this.clock(first));
    if (this.link) this.loops.push(this.connection(first));
  }

  async stop(): Promise<void> {
    this.abort.abort();
    if (this.link instanceof Jt808Link) this.link.video?.stopAll();
    this.closeConn();
    this.wake?.();
    await Promise.allSettled(this.loops);
    if (this.ready) this.setReady(false);
  }

  private sleep(ms: number): Promise<void> {
    if (this.stopped || ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        signal.removeEventListener("abort", done);
        resolve();
      }
      const signal = this.abort.signal;
      signal.addEventListener("abort", done);
    });
  }

  private setReady(ready: boolean): void {
    if (ready === this.ready) return;
    this.ready = ready;
    this.opts.stats.connected += ready ? 1 : -1;
    if (ready && this.logins++ > 0) this.opts.stats.reconnects++;
  }

  // ---- the clock: one report per interval, online or not ---------------------------------

  private async clock(firstDelay: number): Promise<void> {
    const { intervalMs, vehicle } = this.opts;
    let next = Date.now() + firstDelay;
    vehicle.advance(Date.now());
    while (!this.stopped) {
      await this.sleep(next - Date.now());
      if (this.stopped) break;
      next += intervalMs;
      if (next < Date.now()) next = Date.now() + intervalMs; // we fell behind: do not burst
      const { fix, events } = vehicle.advance(Date.now());
      events.unshift(...this.carried.splice(0));
      const alarm = events.find((e) => e.type === "alarm");
      if (!fix.alarm && alarm?.type === "alarm") fix.alarm = alarm.alarm;
      if (fix.alarm) this.opts.stats.alarms++;
      try {
        if (this.link) await this.reportTcp(fix);
        else await this.reportHttp(fix);
      } catch {
        // a write on a dying connection; the connection loop deals with it
      }
      const drop = events.find((e) => e.type === "disconnect");
      if (drop?.type === "disconnect") this.goOffline(drop.offlineSeconds * 1000);
    }
  }

  /**
   * The vehicle as it is now, for a command answer: a tracker asked where it is ("locate now")
   * reads its GPS at that moment, not its last report. Alarms and drops met on the way are
   * left to the next report.
   */
  private current(): DeviceFix {
    const { fix, events } = this.opts.vehicle.advance(Date.now());
    this.carried.push(...events);
    delete fix.alarm;
    return fix;
  }

  private keep(fix: DeviceFix): void {
    this.backlog.push(fix);
    if (this.backlog.length > MAX_BACKLOG) this.backlog.shift();
  }

  /** Drops the connection now, as a tunnel or a dead zone would; it comes back after `ms`. */
  dropConnection(ms: number): void {
    this.goOffline(ms);
  }

  /** The vehicle says the connection drops now; it comes back after `ms`. */
  private goOffline(ms: number): void {
    this.reconnectAt = Date.now() + ms;
    if (this.link) this.closeConn();
    else if (this.ready) this.setReady(false);
  }

  // ---- TCP protocols ----------------------------------------------------------------------

  private async reportTcp(fix: DeviceFix): Promise<void> {
    const link = this.link!;
    if (!this.ready) {
      this.keep(fix);
      return;
    }
    const n = this.tick++;
    const every = this.opts.heartbeatEvery ?? 10;
    // The driver swipes the card in when the ignition turns on and out when it turns off.
    if (link.driverSwipe && this.lastAcc !== null && fix.acc !== this.lastAcc) {
      await this.send(link.driverSwipe(fix, fix.acc));
    }
    this.lastAcc = fix.acc;
    // The driver's badge is seen about once a minute while driving; parked, it leaves with them.
    const badgeEvery = Math.max(1, Math.floor(60_000 / this.opts.intervalMs));
    if (link.badges && fix.acc && n % badgeEvery === 0) await this.send(link.badges(fix));
    if (fix.alarm) await this.send(link.alarm(fix));
    else if (!fix.acc && n % 6 !== 0) await this.send(link.heartbeat(fix)); // parked: mostly heartbeats
    else await this.send(link.position(fix));
    if (fix.acc && n % every === every - 1) await this.send(link.heartbeat(fix));
  }

  private send(bytes: Uint8Array): Promise<void> {
    const conn = this.conn;
    if (!conn) return Promise.resolve();
    this.writing = this.writing.then(async () => {
      await writeAll(conn, bytes);
      this.opts.stats.framesSent++;
    }).catch(() => this.closeConn());
    return this.writing;
  }

  private closeConn(): void {
    const conn = this.conn;
    this.conn = null;
    if (conn) {
      try {
        conn.close();
      } catch { /* closed */ }
    }
  }

  private async connection(firstDelay: number): Promise<void> {
    const { host, port, rng } = this.opts;
    await this.sleep(firstDelay);
    let failures = 0;
    while (!this.stopped) {
      await this.sleep(this.reconnectAt - Date.now());
      if (this.stopped) break;
      let conn: Deno.Conn;
      try {
        conn = await Deno.connect({ hostname: host, port, transport: "tcp" });
      } catch (e) {
        this.opts.stats.errors++;
        this.opts.onProblem?.(this.imei, `connect ${host}:${port}: ${(e as Error).message}`);
        await this.sleep(Math.min(30_000, 1000 * 2 ** failures++) * rng.range(0.8, 1.2));
        continue;
      }
      if (this.stopped) {
        conn.close();
        break;
      }
      this.conn = conn;
      this.writing = Promise.resolve();
      const accepted = await this.session(conn);
      this.closeConn();
      this.setReady(false);
      if (this.stopped) break;
      if (!accepted) {
        this.opts.stats.refused++;
        this.opts.onProblem?.(
          this.imei,
          "the server did not accept the login (is the device imported?)",
        );
        failures++;
      } else {
        failures = 0;
      }
      // Closed by the server, a reset, or the vehicle's drop (reconnectAt is then set).
      const backoff = Math.min(30_000, 2000 * 2 ** Math.min(failures, 4)) * rng.range(0.5, 1);
      this.reconnectAt = Math.max(this.reconnectAt, Date.now() + backoff);
    }
  }

  /** Runs one connection until it closes; true if the login was accepted. */
  private async session(conn: Deno.Conn): Promise<boolean> {
    const link = this.link!;
    const { vehicle, stats } = this.opts;
    let accepted = false;
    const loginTimer = setTimeout(() => {
      if (!accepted) this.closeConn();
    }, this.opts.loginTimeoutMs ?? 15_000);
    const onEvent = async (e: LinkEvent) => {
      switch (e.type) {
        case "ready":
          stats.acks++;
          if (!accepted) {
            accepted = true;
            clearTimeout(loginTimer);
            this.setReady(true);
            await this.flushBacklog();
          }
          break;
        case "ack":
          stats.acks++;
          break;
        case "send":
          await this.send(e.frame);
          break;
        case "command":
          stats.commands++;
          await this.send(e.reply);
          stats.replies++;
          this.opts.onCommand?.(this.imei, e.text, e.replyText);
          break;
      }
    };
    for (const frame of link.hello(vehicle.fix())) await this.send(frame);
    const buf = new Uint8Array(4096);
    try {
      for (;;) {
        const n = await conn.read(buf);
        if (n === null) break;
        for (const e of link.receive(buf.subarray(0, n), () => this.current())) await onEvent(e);
      }
    } catch {
      // reset or closed by us
    } finally {
      clearTimeout(loginTimer);
    }
    return accepted;
  }

  private async flushBacklog(): Promise<void> {
    if (!this.backlog.length) return;
    const fixes = this.backlog;
    this.backlog = [];
    for (const frame of this.link!.backlog(fixes)) await this.send(frame);
  }

  // ---- OsmAnd over HTTP ---------------------------------------------------------------------

  private async reportHttp(fix: DeviceFix): Promise<void> {
    if (Date.now() < this.reconnectAt) {
      this.keep(fix);
      return;
    }
    const pending = [...this.backlog, fix];
    const form = this.opts.osmandForm ?? "query";
    const requests = form === "json"
      ? [osmandJson(this.imei, pending)]
      : pending.map((f) => osmandQuery(this.imei, f));
    let sent = 0;
    for (const r of requests) {
      let body: string;
      try {
        const res = await fetch(`http://${this.opts.host}:${this.opts.port}${r.path}`, {
          method: r.method,
          headers: r.headers,
          body: r.body === "" ? undefined : r.body,
          signal: AbortSignal.timeout(15_000),
        });
        body = await res.text();
        if (!res.ok) {
          if (res.status === 404) this.opts.stats.refused++;
          else this.opts.stats.errors++;
          this.opts.onProblem?.(this.imei, `HTTP ${res.status} ${body.trim().slice(0, 80)}`);
          break;
        }
      } catch (e) {
        this.opts.stats.errors++;
        this.opts.onProblem?.(this.imei, `request failed: ${(e as Error).message}`);
        break;
      }
      sent++;
      this.opts.stats.framesSent++;
      this.opts.stats.acks++; // a 200 is sent only after the report is stored
      this.setReady(true);
      const command = osmandCommand(body);
      if (command !== null) {
        // The phone app cannot answer; receiving it is the end of the exchange.
        this.opts.stats.commands++;
        this.opts.onCommand?.(this.imei, command, null);
      }
    }
    const done = form === "json" ? (sent ? pending.length : 0) : sent;
    if (done < pending.length) {
      this.setReady(false);
      this.backlog = pending.slice(done).slice(-MAX_BACKLOG);
    } else {
      this.backlog = [];
    }
  }
}
