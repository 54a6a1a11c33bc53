/**
 * Starts the device sockets' serving: on the main thread (GATEWAY_WORKERS=0), or in I/O
 * workers that share the ports, whose questions — who is this device, store this data, a
 * link closed — the main thread answers through a LinkTable.
 */
import type { LinkHost } from "../link/device_link.ts";
import { type DeviceLimits, listenDevices, portError, portSetting } from "./listeners.ts";
import type { GatewayIo } from "./transport.ts";
import { within } from "../../../lib/within.ts";
import { type LinkServices, LinkTable } from "../link/link_table.ts";
import type { PortMap, ProtocolName, ToMain, ToWorker } from "../link/link_messages.ts";
import { CommandEncodeError, type OutgoingCommand } from "../link/outgoing.ts";
import type { DeviceMessage } from "../protocols/types.ts";
import { type LinkMetrics, linkMetrics, WorkerCounts } from "../metrics.ts";

export interface DeviceServingOptions extends LinkServices {
  hostname: string;
  ports: PortMap;
  /** 0: serve sockets on the main thread. */
  workers: number;
  /** Which transport serves the sockets (`GATEWAY_IO`). */
  io: GatewayIo;
  idleMs: number;
  /** DEVICE_LOGIN_SECONDS in ms. */
  loginMs: number;
  /** MAX_DEVICE_CONNECTIONS: for the whole process, all workers together. */
  maxConnections: number;
  /** The registered link series (workers' counts are added to them). */
  metrics?: LinkMetrics;
}

export interface DeviceServing {
  ports: PortMap;
  /** The transport that serves the sockets. */
  io: "epoll" | "deno";
  close(): Promise<void>;
}

type Listening = Pick<DeviceServing, "ports" | "io">;

/** How long a stopping worker may take to close its sockets before it is terminated. */
const STOP_GRACE_MS = 2000;

/** One I/O worker: relays its links' requests to its LinkTable and the answers back. */
class IoWorker {
  private readonly worker: Worker;
  private readonly table: LinkTable;
  private readonly counts: WorkerCounts;
  private readonly sends = new Map<number, { resolve(): void; reject(e: Error): void }>();
  private nextReq = 1;
  /** Link ids whose data was committed / failed, sent back in one message per turn. */
  private acks: { links: number[]; failed: number[] } | null = null;
  private listening: { resolve(l: Listening): void; reject(e: Error): void } | null = null;
  private stopped: (() => void) | null = null;

  constructor(
    private readonly o: DeviceServingOptions,
    private readonly limits: DeviceLimits,
    private readonly onCrash: () => void,
  ) {
    this.table = new LinkTable(o);
    this.counts = new WorkerCounts(o.metrics ?? linkMetrics());
    this.worker = new Worker(new URL("./io_worker.ts", import.meta.url), { type: "module" });
    this.worker.onmessage = (e: MessageEvent<ToMain>) => this.receive(e.data);
    this.worker.onerror = (e) => {
      // An uncaught error in a worker would otherwise take the whole process down.
      e.preventDefault();
      this.o.log(`gateway I/O worker failed: ${e.message}; restarting it`);
      this.terminate();
      this.onCrash();
    };
  }

  start(ports: PortMap, reusePort: boolean): Promise<Listening> {
    return new Promise((resolve, reject) => {
      this.listening = { resolve, reject };
      const { hostname, io } = this.o;
      this.post({ t: "init", hostname, ports, reusePort, limits: this.limits, io });
    });
  }

  /** Closes the listeners and connections, then the worker. */
  async stop(): Promise<void> {
    const done = new Promise<void>((r) => (this.stopped = r));
    this.post({ t: "stop" });
    await within(done, STOP_GRACE_MS);
    this.terminate();
  }

  /** Ends the worker; its links count as closed. */
  terminate(): void {
    this.worker.terminate();
    this.counts.withdraw();
    this.table.closeAll();
    for (const s of this.sends.values()) s.reject(new Error("gateway worker stopped"));
    this.sends.clear();
  }

  private post(m: ToWorker) {
    this.worker.postMessage(m);
  }

  /**
   * The table's answer to the worker, or null (refused) when working it out failed: the
   * worker always gets an answer, and the failure is logged, never an unhandled rejection.
   */
  private orRefused<T>(answer: Promise<T>, failed: string): Promise<T | null> {
    return answer.catch((e) => {
      this.o.log(`${failed} (${(e as Error).message})`);
      return null;
    });
  }

  private receive(m: ToMain): void {
    switch (m.t) {
      case "listening":
        return this.listening?.resolve({ ports: m.ports, io: m.io });
      case "listenFailed":
        return this.listening?.reject(
          m.inUse ? new Deno.errors.AddrInUse(m.error) : new Error(m.error),
        );
      case "login": {
        const io = {
          send: (command: OutgoingCommand) => this.send(m.link, command),
          close: () => this.post({ t: "close", link: m.link }),
        };
        this.orRefused(
          this.table.login(m.link, m.id, m.protocol, m.remote, io),
          `[${m.protocol}] ${m.remote}: login failed`,
        ).then((device) => this.post({ t: "login", link: m.link, device }));
        return;
      }
      case "register":
        this.orRefused(this.table.register(m.link, m.terminal), "gateway: registration failed")
          .then((code) => this.post({ t: "registered", link: m.link, code }));
        return;
      case "authenticate":
        this.orRefused(this.table.authenticate(m.link, m.code), "gateway: authentication failed")
          .then((device) => this.post({ t: "login", link: m.link, device }));
        return;
      case "ready":
        return this.table.ready(m.link);
      case "data":
        if (m.counts) this.counts.add(m.counts);
        for (let i = 0; i < m.links.length; i++) this.store(m.links[i], m.messages[i]);
        return;
      case "counts":
        return this.counts.add(m.counts);
      case "closed":
        return this.table.closed(m.link);
      case "sent": {
        const s = this.sends.get(m.req);
        this.sends.delete(m.req);
        if (!m.error) s?.resolve();
        else {
          s?.reject(
            m.error === "encode" ? new CommandEncodeError("") : new Error("write failed"),
          );
        }
        return;
      }
      case "log":
        return this.o.log(m.line, m.level);
      case "stopped":
        return this.stopped?.();
    }
  }

  private store(link: number, messages: DeviceMessage[]): void {
    this.table.store(link, messages).then(() => this.ack(link, true), (e) => {
      this.o.log(`gateway: store failed (${(e as Error).message})`);
      this.ack(link, false);
    });
  }

  /** Collects acknowledgements; a commit settles many links at once, sent as one message. */
  private ack(link: number, ok: boolean): void {
    if (!this.acks) {
      this.acks = { links: [], failed: [] };
      queueMicrotask(() => {
        const a = this.acks!;
        this.acks = null;
        this.post({ t: "stored", links: a.links, failed: a.failed });
      });
    }
    (ok ? this.acks.links : this.acks.failed).push(link);
  }

  private send(link: number, command: OutgoingCommand): Promise<void> {
    return new Promise((resolve, reject) => {
      const req = this.nextReq++;
      this.sends.set(req, { resolve, reject });
      this.post({ t: "send", link, req, command });
    });
  }
}

/** Serves device sockets on the main thread: the same links, without messages in between. */
function serveOnMainThread(o: DeviceServingOptions): DeviceServing {
  const table = new LinkTable(o);
  const host: LinkHost = {
    login: (link, id) =>
      table.login(link.id, id, link.protocol.name, link.remote, {
        send: (command) => link.send(command),
        close: () => link.close(),
      }),
    register: (link, terminal) => table.register(link.id, terminal),
    authenticate: (link, code) => table.authenticate(link.id, code),
    ready: (link) => table.ready(link.id),
    store: (link, messages) => table.store(link.id, messages),
    closed: (link) => table.closed(link.id),
    log: o.log,
  };
  const limits = deviceLimits(o, new Int32Array(1), 0);
  const listeners = listenDevices(o.hostname, o.ports, false, limits, host, o.io, o.metrics);
  return {
    ports: listeners.ports,
    io: listeners.io,
    close: () => listeners.close(),
  };
}

/**
 * Starts serving device sockets. With workers, the first binds the configured ports (0 picks
 * free ones) and the others join it on the same ports. With more than one worker the ports
 * are shared with SO_REUSEPORT; a probe first makes sure no other process holds them (which
 * SO_REUSEPORT would otherwise let a second server instance silently share).
 */
export async function serveDevices(o: DeviceServingOptions): Promise<DeviceServing> {
  if (o.workers === 0) return serveOnMainThread(o);
  const reusePort = o.workers > 1;
  if (reusePort) probePorts(o.hostname, o.ports);
  const workers: IoWorker[] = [];
  // Each worker counts its connections in its own slot; the cap applies to their sum.
  const counts = new Int32Array(new SharedArrayBuffer(4 * o.workers));
  let ports = o.ports;
  let io: Listening["io"] = "deno";
  let stopping = false;
  const spawn = async (slot: number) => {
    Atomics.store(counts, slot, 0); // a crashed worker's connections went with it
    const w: IoWorker = new IoWorker(o, deviceLimits(o, counts, slot), () => {
      if (!stopping) spawn(slot).catch((e) => o.log(`gateway I/O worker restart failed: ${e}`));
    });
    workers[slot] = w;
    try {
      return await w.start(ports, reusePort);
    } catch (e) {
      w.terminate();
      throw e;
    }
  };
  try {
    ({ ports, io } = await spawn(0));
    await Promise.all(Array.from({ length: o.workers - 1 }, (_, i) => spawn(i + 1)));
  } catch (e) {
    for (const w of workers) w?.terminate();
    throw e;
  }
  return {
    ports,
    io,
    async close() {
      stopping = true;
      await Promise.all(workers.map((w) => w.stop()));
    },
  };
}

function deviceLimits(o: DeviceServingOptions, counts: Int32Array, slot: number): DeviceLimits {
  return {
    idleMs: o.idleMs,
    loginMs: o.loginMs,
    connections: { counts, slot, cap: o.maxConnections },
  };
}

/** Fails (address in use) if another socket holds one of the ports. */
function probePorts(hostname: string, ports: PortMap): void {
  for (const [name, port] of Object.entries(ports) as [ProtocolName, number][]) {
    if (port === 0) continue;
    try {
      Deno.listen({ hostname, port, transport: "tcp" }).close();
    } catch (e) {
      throw portError(e, portSetting(name), port);
    }
  }
}
