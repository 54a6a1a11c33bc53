/**
 * Single mode's cluster: one instance, an in-process link with NATS's subject rules, and a
 * leadership that is always held. Modules written against `Cluster` run unchanged on it.
 */
import { log } from "../log.ts";
import {
  type Cluster,
  type ClusterLink,
  type Leadership,
  type LinkHandler,
  LinkRemoteError,
  LinkTimeout,
} from "./types.ts";

const linkLog = log.area("cluster");

/** Whether `subject` matches `pattern` (`*` one token, `>` one or more trailing tokens). */
export function subjectMatches(pattern: string, subject: string): boolean {
  const p = pattern.split("."), s = subject.split(".");
  for (let i = 0; i < p.length; i++) {
    if (p[i] === ">") return s.length > i;
    if (i >= s.length) return false;
    if (p[i] !== "*" && p[i] !== s[i]) return false;
  }
  return p.length === s.length;
}

export class LocalLink implements ClusterLink {
  private subs = new Set<{ pattern: string; handler: LinkHandler }>();
  private responders = new Map<string, (data: Uint8Array) => Promise<Uint8Array>>();

  publish(subject: string, data: Uint8Array): void {
    for (const sub of this.subs) {
      if (!subjectMatches(sub.pattern, subject)) continue;
      try {
        sub.handler(data, subject);
      } catch (e) {
        linkLog.error(`handler of ${sub.pattern} failed`, e);
      }
    }
  }

  subscribe(subject: string, handler: LinkHandler): () => void {
    const sub = { pattern: subject, handler };
    this.subs.add(sub);
    return () => void this.subs.delete(sub);
  }

  async request(subject: string, data: Uint8Array, timeoutMs: number): Promise<Uint8Array> {
    const responder = this.responders.get(subject);
    if (!responder) throw new LinkTimeout(subject);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new LinkTimeout(subject)), timeoutMs);
    });
    try {
      return await Promise.race([
        responder(data).catch((e) => {
          throw new LinkRemoteError(e instanceof Error ? e.message : String(e));
        }),
        timeout,
      ]);
    } finally {
      clearTimeout(timer);
    }
  }

  reply(subject: string, handler: (data: Uint8Array) => Promise<Uint8Array>): () => void {
    this.responders.set(subject, handler);
    return () => void this.responders.delete(subject);
  }

  /** Subscriptions are in place at once here. */
  flush(): Promise<void> {
    return Promise.resolve();
  }

  state(): "up" {
    return "up";
  }

  close(): Promise<void> {
    this.subs.clear();
    this.responders.clear();
    return Promise.resolve();
  }
}

/** The only instance leads. */
export const ALWAYS_LEADER: Leadership = {
  isLeader: () => true,
  onChange: () => () => {},
  close: () => Promise.resolve(),
};

/** A process-unique instance id: `<hostname>-<pid>-<random>` with dots made dashes. */
export function newInstanceId(): string {
  const host = (() => {
    try {
      return Deno.hostname();
    } catch {
      return "host";
    }
  })();
  const random = crypto.getRandomValues(new Uint32Array(1))[0].toString(36);
  return `${host}-${Deno.pid}-${random}`.replace(/[^A-Za-z0-9_-]/g, "-");
}

/** Single mode. */
export function singleCluster(): Cluster {
  return {
    mode: "single",
    instanceId: newInstanceId(),
    link: new LocalLink(),
    leader: ALWAYS_LEADER,
  };
}
