/**
 * The slice of Linux libc that non-blocking TCP over epoll needs, bound through Deno's FFI,
 * with the struct layouts it takes (socket addresses, `epoll_event`).
 *
 * Why not `Deno.listen`/`Deno.connect`: each read and write there is an async op with its
 * promise, its Tokio task and its completion turn; for thousands of small frames a second
 * that machinery cost ~45 µs of CPU per frame and answer where the same work through
 * `epoll_wait(2)`, `read(2)` and `write(2)` called from JavaScript cost ~12-15 µs
 * (docs/performance.md, "Ingest"). Linux only, x86-64 and arm64 (the two `epoll_event`
 * layouts below); callers check `epollSupported()` and keep Deno's sockets as the fallback.
 */
import { log } from "../log.ts";

const netLog = log.area("gateway");

const SYMBOLS = {
  socket: { parameters: ["i32", "i32", "i32"], result: "i32" },
  connect: { parameters: ["i32", "buffer", "u32"], result: "i32" },
  bind: { parameters: ["i32", "buffer", "u32"], result: "i32" },
  listen: { parameters: ["i32", "i32"], result: "i32" },
  accept4: { parameters: ["i32", "buffer", "buffer", "i32"], result: "i32" },
  getsockname: { parameters: ["i32", "buffer", "buffer"], result: "i32" },
  setsockopt: { parameters: ["i32", "i32", "i32", "buffer", "u32"], result: "i32" },
  getsockopt: { parameters: ["i32", "i32", "i32", "buffer", "buffer"], result: "i32" },
  read: { parameters: ["i32", "buffer", "usize"], result: "isize" },
  write: { parameters: ["i32", "buffer", "usize"], result: "isize" },
  /** `write` for sockets; with MSG_NOSIGNAL a peer's reset is EPIPE, not a SIGPIPE. */
  send: { parameters: ["i32", "buffer", "usize", "i32"], result: "isize" },
  close: { parameters: ["i32"], result: "i32" },
  eventfd: { parameters: ["u32", "i32"], result: "i32" },
  epoll_create1: { parameters: ["i32"], result: "i32" },
  epoll_ctl: { parameters: ["i32", "i32", "i32", "buffer"], result: "i32" },
  /** Runs on a blocking thread (a promise), so the event loop goes on while it waits. */
  epoll_wait: {
    parameters: ["i32", "buffer", "i32", "i32"],
    result: "i32",
    nonblocking: true,
  },
  /** `epoll_wait` on the calling thread (for threads that may block, e.g. a worker). */
  epoll_wait_here: {
    name: "epoll_wait",
    parameters: ["i32", "buffer", "i32", "i32"],
    result: "i32",
  },
  shutdown: { parameters: ["i32", "i32"], result: "i32" },
  /** `struct rlimit` is two rlim_t (u64): the soft then the hard limit. */
  getrlimit: { parameters: ["i32", "buffer"], result: "i32" },
  setrlimit: { parameters: ["i32", "buffer"], result: "i32" },
  __errno_location: { parameters: [], result: "pointer" },
} as const;

export type LibcSymbols = Deno.DynamicLibrary<typeof SYMBOLS>["symbols"];

export const AF_INET = 2, AF_INET6 = 10;
export const SOCK_STREAM = 1, SOCK_NONBLOCK = 0x800, SOCK_CLOEXEC = 0x80000;
export const SOL_SOCKET = 1, SO_REUSEADDR = 2, SO_ERROR = 4, SO_REUSEPORT = 15;
export const IPPROTO_TCP = 6, TCP_NODELAY = 1;
export const EPOLLIN = 0x1, EPOLLOUT = 0x4, EPOLLERR = 0x8, EPOLLHUP = 0x10;
export const EPOLLRDHUP = 0x2000, EPOLLET = 0x80000000;
export const MSG_NOSIGNAL = 0x4000, MSG_DONTWAIT = 0x40, SHUT_RDWR = 2;
export const EPOLL_CTL_ADD = 1, EPOLL_CTL_DEL = 2, EPOLL_CTL_MOD = 3;
export const EINTR = 4, EAGAIN = 11, EACCES = 13, ENFILE = 23, EMFILE = 24, ECONNABORTED = 103;
export const RLIMIT_NOFILE = 7;
export const EADDRINUSE = 98, EADDRNOTAVAIL = 99, EINPROGRESS = 115;

/**
 * `struct epoll_event`: u32 events then a u64 of user data, packed on x86-64 (12 bytes) and
 * naturally aligned on arm64 (16). We keep a 32-bit token in the data's low half.
 */
export const EPOLL_EVENT_SIZE = Deno.build.arch === "x86_64" ? 12 : 16;
export const EPOLL_DATA_OFFSET = Deno.build.arch === "x86_64" ? 4 : 8;

export function epollSupported(): boolean {
  return Deno.build.os === "linux" &&
    (Deno.build.arch === "x86_64" || Deno.build.arch === "aarch64");
}

/** libc opened once per thread that needs it, with errno and error helpers. */
export class Libc {
  private readonly lib = Deno.dlopen("libc.so.6", SYMBOLS);
  readonly fn: LibcSymbols = this.lib.symbols;
  /** A reusable int for setsockopt's value. */
  private readonly one = new Int32Array([1]);

  errno(): number {
    return new Deno.UnsafePointerView(this.fn.__errno_location()!).getInt32();
  }

  /** An Error naming the call and errno (the Deno error class where one fits). */
  error(call: string, errno = this.errno()): Error {
    const message = `${call} failed: errno ${errno}${
      errno === EMFILE || errno === ENFILE ? " (too many open files)" : ""
    }`;
    if (errno === EADDRINUSE) return new Deno.errors.AddrInUse(message);
    if (errno === EADDRNOTAVAIL) return new Deno.errors.AddrNotAvailable(message);
    if (errno === EACCES) return new Deno.errors.PermissionDenied(message);
    return new Error(message);
  }

  /** Sets an integer socket option to 1. */
  enable(fd: number, level: number, option: number): void {
    this.fn.setsockopt(fd, level, option, this.one, 4);
  }

  close(): void {
    this.lib.close();
  }
}

/** An IP literal (v4 or v6, "localhost" as 127.0.0.1) and port as a `sockaddr`; null if not a literal. */
export function socketAddress(hostname: string, port: number): Uint8Array | null {
  const host = hostname === "localhost" ? "127.0.0.1" : hostname.replace(/^\[|\]$/g, "");
  const v4 = parseIpv4(host);
  if (v4) return sockaddr(AF_INET, 16, port, 4, v4);
  const v6 = parseIpv6(host);
  return v6 ? sockaddr(AF_INET6, 28, port, 8, v6) : null;
}

/** `sockaddr_in` (16 bytes, address at 4) or `sockaddr_in6` (28 bytes, address at 8). */
function sockaddr(
  family: number,
  size: number,
  port: number,
  addressAt: number,
  address: ArrayLike<number>,
): Uint8Array {
  const a = new Uint8Array(size);
  const view = new DataView(a.buffer);
  view.setUint16(0, family, true);
  view.setUint16(2, port, false);
  a.set(address, addressAt);
  return a;
}

/** The host and port of a `sockaddr_in`/`sockaddr_in6`, as Deno formats them. */
export function readSocketAddress(a: Uint8Array): { hostname: string; port: number } {
  const view = new DataView(a.buffer, a.byteOffset, a.byteLength);
  const port = view.getUint16(2, false);
  if (view.getUint16(0, true) === AF_INET) return { hostname: a.subarray(4, 8).join("."), port };
  const groups = Array.from({ length: 8 }, (_, i) => view.getUint16(8 + i * 2, false));
  return { hostname: formatIpv6(groups), port };
}

function parseIpv4(s: string): number[] | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(s);
  if (!m) return null;
  const parts = m.slice(1).map(Number);
  return parts.every((p) => p <= 255) ? parts : null;
}

function parseIpv6(s: string): Uint8Array | null {
  if (!/^[0-9a-fA-F:.]+$/.test(s) || !s.includes(":")) return null;
  const halves = s.split("::");
  if (halves.length > 2) return null;
  const groups = (part: string): number[] | null => {
    if (part === "") return [];
    const out: number[] = [];
    const pieces = part.split(":");
    for (let i = 0; i < pieces.length; i++) {
      const p = pieces[i];
      const v4 = i === pieces.length - 1 ? parseIpv4(p) : null;
      if (v4) out.push((v4[0] << 8) | v4[1], (v4[2] << 8) | v4[3]);
      else if (/^[0-9a-fA-F]{1,4}$/.test(p)) out.push(parseInt(p, 16));
      else return null;
    }
    return out;
  };
  const head = groups(halves[0]), tail = halves.length === 2 ? groups(halves[1]) : [];
  if (!head || !tail) return null;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const all = [...head, ...Array(missing).fill(0), ...tail];
  const bytes = new Uint8Array(16);
  all.forEach((g, i) => {
    bytes[i * 2] = g >> 8;
    bytes[i * 2 + 1] = g & 0xff;
  });
  return bytes;
}

/** RFC 5952 text: lower case, the longest run of zero groups (≥ 2) as "::". */
function formatIpv6(groups: number[]): string {
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return `::ffff:${groups[6] >> 8}.${groups[6] & 0xff}.${groups[7] >> 8}.${groups[7] & 0xff}`;
  }
  let best = -1, bestLength = 1;
  for (let i = 0; i < 8;) {
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) [best, bestLength] = [i, j - i];
    i = j === i ? i + 1 : j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (best < 0) return hex.join(":");
  return `${hex.slice(0, best).join(":")}::${hex.slice(best + bestLength).join(":")}`;
}

/**
 * An epoll instance with its dispatch loop: `epoll_wait` on a blocking thread, then
 * `onEvent(token, flags)` for each ready descriptor on the JavaScript thread. An eventfd
 * wakes the wait when the loop stops, so stopping takes no timeout.
 */
export class EpollLoop {
  private readonly epfd: number;
  private readonly wakeFd: number;
  private readonly events: Uint8Array;
  private readonly eventView: DataView;
  private readonly ctl = new Uint8Array(EPOLL_EVENT_SIZE);
  private readonly ctlView = new DataView(this.ctl.buffer);
  private running = false;
  private loop: Promise<void> = Promise.resolve();

  /** Token reserved for the wake-up eventfd. */
  static readonly WAKE = 0xffffffff;

  constructor(
    private readonly libc: Libc,
    private readonly onEvent: (token: number, flags: number) => void,
    maxEvents = 1024,
  ) {
    this.events = new Uint8Array(EPOLL_EVENT_SIZE * maxEvents);
    this.eventView = new DataView(this.events.buffer);
    this.epfd = libc.fn.epoll_create1(0x80000 /* EPOLL_CLOEXEC */);
    if (this.epfd < 0) throw libc.error("epoll_create1");
    this.wakeFd = libc.fn.eventfd(0, 0x800 | 0x80000 /* EFD_NONBLOCK | EFD_CLOEXEC */);
    if (this.wakeFd < 0) throw libc.error("eventfd");
    this.control(EPOLL_CTL_ADD, this.wakeFd, EPOLLIN, EpollLoop.WAKE);
  }

  /** Adds, changes or removes a descriptor's interest (closing an fd also removes it). */
  control(op: number, fd: number, flags: number, token: number): void {
    this.ctlView.setUint32(0, flags >>> 0, true);
    this.ctlView.setUint32(EPOLL_DATA_OFFSET, token, true);
    this.ctlView.setUint32(EPOLL_DATA_OFFSET + 4, 0, true);
    if (this.libc.fn.epoll_ctl(this.epfd, op, fd, this.ctl) < 0) {
      throw this.libc.error("epoll_ctl");
    }
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.dispatch();
  }

  /** Stops dispatching and closes the epoll instance (descriptors stay the owner's). */
  async stop(): Promise<void> {
    if (this.running) {
      this.running = false;
      this.libc.fn.write(this.wakeFd, new BigUint64Array([1n]), 8n);
      await this.loop;
    }
    this.libc.fn.close(this.wakeFd);
    this.libc.fn.close(this.epfd);
  }

  private async dispatch(): Promise<void> {
    const max = this.events.length / EPOLL_EVENT_SIZE;
    while (this.running) {
      // n < 0 is EINTR (errno lives on the waiting thread, so it is not read here).
      const n = await this.libc.fn.epoll_wait(this.epfd, this.events, max, -1);
      for (let i = 0; i < n && this.running; i++) {
        const at = i * EPOLL_EVENT_SIZE;
        const token = this.eventView.getUint32(at + EPOLL_DATA_OFFSET, true);
        if (token === EpollLoop.WAKE) continue;
        try {
          this.onEvent(token, this.eventView.getUint32(at, true));
        } catch (e) {
          // A handler's bug must not stop every other socket's events.
          netLog.error("epoll handler failed", e);
        }
      }
    }
  }
}
