/**
 * The process's file descriptor limit (RLIMIT_NOFILE): read, raised to the hard limit at
 * start-up, and split between device connections and a reserve for everything else.
 *
 * Every socket is a descriptor. When device connections take the last one, the next accept
 * of the console's HTTP listener fails with EMFILE ("Too many open files") and the whole
 * product stops answering, so device connections are capped below the limit
 * (MAX_DEVICE_CONNECTIONS) and the rest stays for HTTP, the store and files.
 */
import { epollSupported, Libc, RLIMIT_NOFILE } from "./libc.ts";

export interface DescriptorLimits {
  /** The limit in force (Infinity: unlimited). */
  soft: number;
  /** What the soft limit may be raised to without privileges. */
  hard: number;
}

export interface RaisedLimits extends DescriptorLimits {
  /** The soft limit found at start-up, when it was lower than what is in force now. */
  raisedFrom?: number;
  /** Why raising failed, when it did. */
  error?: string;
}

const UNLIMITED = 0xffff_ffff_ffff_ffffn;

/** The descriptor limits, or null where they cannot be read (not Linux, no FFI, no /proc). */
export function readDescriptorLimits(): DescriptorLimits | null {
  return withLibc((libc) => getLimits(libc)) ?? readProcLimits();
}

/**
 * Raises the soft limit to the hard limit (Deno does this itself at start-up; this makes
 * sure, e.g. for a runtime that does not) and reports both.
 */
export function raiseDescriptorLimit(): RaisedLimits | null {
  const raised = withLibc((libc): RaisedLimits => {
    const before = getLimits(libc);
    const target = before.hard === Infinity ? kernelMaximum() : before.hard;
    if (before.soft >= target) return before;
    const want = new BigUint64Array([BigInt(target), toRlim(before.hard)]);
    if (libc.fn.setrlimit(RLIMIT_NOFILE, want) < 0) {
      return { ...before, error: libc.error("setrlimit").message };
    }
    return { ...getLimits(libc), raisedFrom: before.soft };
  });
  return raised ?? readProcLimits();
}

/**
 * Descriptors kept for everything but device connections: HTTP (console, API, OsmAnd),
 * the KV store, worker threads, files, DNS and outgoing mail/webhooks. 10 % of the limit
 * and at least 256, but never more than half the limit (a tiny limit still serves devices).
 */
export function descriptorReserve(limit: number): number {
  return Math.min(Math.floor(limit / 2), Math.max(256, Math.ceil(limit / 10)));
}

/** Device connections allowed when the limit cannot be read (e.g. Windows). */
export const UNKNOWN_LIMIT_CONNECTIONS = 10_000;

/** The default MAX_DEVICE_CONNECTIONS: the descriptor limit less the reserve. */
export function defaultDeviceConnections(limits: DescriptorLimits | null): number {
  if (!limits || limits.soft === Infinity) return UNKNOWN_LIMIT_CONNECTIONS;
  return Math.max(1, limits.soft - descriptorReserve(limits.soft));
}

function withLibc<T>(use: (libc: Libc) => T): T | null {
  if (!epollSupported() || Deno.permissions.querySync?.({ name: "ffi" }).state !== "granted") {
    return null;
  }
  let libc: Libc;
  try {
    libc = new Libc();
  } catch {
    return null; // not glibc (e.g. musl): /proc still answers
  }
  try {
    return use(libc);
  } finally {
    libc.close();
  }
}

function getLimits(libc: Libc): DescriptorLimits {
  const out = new BigUint64Array(2);
  if (libc.fn.getrlimit(RLIMIT_NOFILE, out) < 0) throw libc.error("getrlimit");
  return { soft: fromRlim(out[0]), hard: fromRlim(out[1]) };
}

const fromRlim = (v: bigint) => (v === UNLIMITED ? Infinity : Number(v));
const toRlim = (v: number) => (v === Infinity ? UNLIMITED : BigInt(v));

/** The most descriptors a Linux process may have (fs.nr_open), for an unlimited hard limit. */
function kernelMaximum(): number {
  try {
    return Number(Deno.readTextFileSync("/proc/sys/fs/nr_open").trim()) || 1_048_576;
  } catch {
    return 1_048_576;
  }
}

/** "Max open files  20000  20000  files" from /proc/self/limits (Linux without FFI). */
function readProcLimits(): DescriptorLimits | null {
  let text: string;
  try {
    text = Deno.readTextFileSync("/proc/self/limits");
  } catch {
    return null;
  }
  const m = /^Max open files\s+(\d+|unlimited)\s+(\d+|unlimited)/m.exec(text);
  if (!m) return null;
  const value = (s: string) => (s === "unlimited" ? Infinity : Number(s));
  return { soft: value(m[1]), hard: value(m[2]) };
}
