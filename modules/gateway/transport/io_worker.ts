/// <reference lib="deno.worker" />
/**
 * A gateway I/O worker: owns device sockets for the three TCP protocols. Reads, frame
 * splitting, decoding, acknowledgements and command encoding happen here, so tens of
 * thousands of small socket operations a second stay off the main thread, which only commits
 * (a flood of read completions on the main thread delayed every commit's completion by tens
 * of milliseconds: docs/performance.md). Several workers share each port (SO_REUSEPORT).
 */
import type { LinkHost } from "../link/device_link.ts";
import { type DeviceListeners, listenDevices } from "./listeners.ts";
import type { LoginAnswer, ToMain, ToWorker } from "../link/link_messages.ts";
import { CommandEncodeError } from "../link/outgoing.ts";
import type { DeviceMessage } from "../protocols/types.ts";
import { CountsOutbox, linkMetrics } from "../metrics.ts";

const post = (m: ToMain) => self.postMessage(m);

/**
 * This worker's counters (frames, connections, refusals): their gains ride along with the
 * data messages, and a timer reports them when no data goes (connections opening, refusals).
 */
const metrics = linkMetrics();
const counts = new CountsOutbox(metrics);
const COUNTS_MS = 1000;
let countsTimer: ReturnType<typeof setInterval> | undefined;

interface Waiter<T> {
  resolve(v: T): void;
  reject(e: Error): void;
}

const logins = new Map<number, Waiter<LoginAnswer>>();
const registrations = new Map<number, Waiter<string | null>>();
const stores = new Map<number, Waiter<void>>();
let listeners: DeviceListeners | null = null;

/**
 * Data from every link that read something in this turn of the event loop goes to the main
 * thread in one message (one structured clone instead of one per device).
 */
let outbox: { links: number[]; messages: DeviceMessage[][] } | null = null;

function queueData(link: number, messages: DeviceMessage[]) {
  if (!outbox) {
    outbox = { links: [], messages: [] };
    queueMicrotask(() => {
      const o = outbox!;
      outbox = null;
      post({ t: "data", links: o.links, messages: o.messages, counts: counts.take() ?? undefined });
    });
  }
  outbox.links.push(link);
  outbox.messages.push(messages);
}

const host: LinkHost = {
  login(link, id) {
    return new Promise((resolve, reject) => {
      logins.set(link.id, { resolve, reject });
      post({ t: "login", link: link.id, id, protocol: link.protocol.name, remote: link.remote });
    });
  },
  register(link, terminal) {
    return new Promise((resolve, reject) => {
      registrations.set(link.id, { resolve, reject });
      post({ t: "register", link: link.id, terminal });
    });
  },
  authenticate(link, code) {
    // Answered like a login; an authentication never answers "busy".
    return new Promise((resolve, reject) => {
      logins.set(link.id, {
        resolve: (answer) => resolve(answer === "busy" ? null : answer),
        reject,
      });
      post({ t: "authenticate", link: link.id, code });
    });
  },
  ready(link) {
    post({ t: "ready", link: link.id });
  },
  store(link, messages) {
    return new Promise((resolve, reject) => {
      stores.set(link.id, { resolve, reject });
      queueData(link.id, messages);
    });
  },
  closed(link) {
    logins.delete(link.id);
    registrations.delete(link.id);
    stores.delete(link.id);
    if (link.device || link.awaitingCredential) post({ t: "closed", link: link.id });
  },
  log(line, level) {
    post({ t: "log", line, level });
  },
};

async function send(msg: Extract<ToWorker, { t: "send" }>) {
  const link = listeners?.links.get(msg.link);
  if (!link) return post({ t: "sent", req: msg.req, error: "write" });
  try {
    await link.send(msg.command);
    post({ t: "sent", req: msg.req });
  } catch (e) {
    post({ t: "sent", req: msg.req, error: e instanceof CommandEncodeError ? "encode" : "write" });
  }
}

function settle<T>(waiters: Map<number, Waiter<T>>, link: number, outcome: T | Error) {
  const w = waiters.get(link);
  if (!w) return;
  waiters.delete(link);
  if (outcome instanceof Error) w.reject(outcome);
  else w.resolve(outcome);
}

self.onmessage = async (e: MessageEvent<ToWorker>) => {
  const msg = e.data;
  switch (msg.t) {
    case "init":
      try {
        listeners = listenDevices(
          msg.hostname,
          msg.ports,
          msg.reusePort,
          msg.limits,
          host,
          msg.io,
          metrics,
        );
        countsTimer = setInterval(() => {
          const c = counts.take();
          if (c) post({ t: "counts", counts: c });
        }, COUNTS_MS);
        post({ t: "listening", ports: listeners.ports, io: listeners.io });
      } catch (err) {
        post({
          t: "listenFailed",
          error: (err as Error).message,
          inUse: err instanceof Deno.errors.AddrInUse,
        });
      }
      break;
    case "login":
      settle(logins, msg.link, msg.device);
      break;
    case "registered":
      settle(registrations, msg.link, msg.code);
      break;
    case "stored":
      for (const link of msg.links) settle(stores, link, undefined);
      for (const link of msg.failed) settle(stores, link, new Error("commit failed"));
      break;
    case "send":
      await send(msg);
      break;
    case "close":
      listeners?.links.get(msg.link)?.close();
      break;
    case "stop":
      clearInterval(countsTimer);
      await listeners?.close();
      post({ t: "counts", counts: counts.take() ?? [] });
      post({ t: "stopped" });
      break;
  }
};
