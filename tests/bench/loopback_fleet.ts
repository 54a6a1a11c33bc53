/**
 * Thousands of loopback TCP client sockets for the ingest benchmark, driven through libc's
 * epoll by FFI instead of `Deno.connect`.
 *
 * Why: the load generator shares the machine's two cores with the server it measures. With
 * one `Deno.TcpConn` per simulated device, every frame costs the generator a promise-based
 * write and a read op (~30 µs of CPU per position), a third of the machine at 20,000/s,
 * taken from the server. Here a write is one `write(2)` and every readable socket one
 * `read(2)`, from a single `epoll_wait(2)` that runs on a blocking thread so the bench's
 * timers keep running: the generator's share drops to what the kernel needs.
 *
 * Linux x86-64 only (the `epoll_event` layout below); the bench checks that before using it.
 */
import { concatBytes } from "../../lib/bytes.ts";

const EPOLLIN = 0x1, EPOLLOUT = 0x4, EPOLLERR = 0x8, EPOLLHUP = 0x10;
const EPOLL_CTL_ADD = 1, EPOLL_CTL_MOD = 3;
const AF_INET = 2, SOCK_STREAM = 1, SOCK_NONBLOCK = 0x800, SOCK_CLOEXEC = 0x80000;
const SOL_SOCKET = 1, SO_ERROR = 4, IPPROTO_TCP = 6, TCP_NODELAY = 1;
const EAGAIN = 11, EINTR = 4, EINPROGRESS = 115;
/** `struct epoll_event` is packed on x86-64: u32 events, u64 data (we keep the fd in it). */
const EVENT_SIZE = 12;
const MAX_EVENTS = 2048;

const SYMBOLS = {
  socket: { parameters: ["i32", "i32", "i32"], result: "i32" },
  connect: { parameters: ["i32", "buffer", "u32"], result: "i32" },
  setsockopt: { parameters: ["i32", "i32", "i32", "buffer", "u32"], result: "i32" },
  getsockopt: { parameters: ["i32", "i32", "i32", "buffer", "buffer"], result: "i32" },
  read: { parameters: ["i32", "buffer", "usize"], result: "isize" },
  write: { parameters: ["i32", "buffer", "usize"], result: "isize" },
  close: { parameters: ["i32"], result: "i32" },
  epoll_create1: { parameters: ["i32"], result: "i32" },
  epoll_ctl: { parameters: ["i32", "i32", "i32", "buffer"], result: "i32" },
  epoll_wait_blocking: {
    name: "epoll_wait",
    parameters: ["i32", "buffer", "i32", "i32"],
    result: "i32",
    nonblocking: true,
  },
  __errno_location: { parameters: [], result: "pointer" },
} as const;

/** What a socket's owner hears from the fleet. */
export interface SocketHandler {
  /** Bytes read; the view is reused after the call returns. */
  onData(bytes: Uint8Array): void;
  /** The peer closed or the socket failed; the fd is closed already. */
  onClosed(): void;
}

interface Socket {
  handler: SocketHandler;
  /** Bytes the kernel did not take yet (sent when the socket is writable again). */
  unsent: Uint8Array | null;
  /** Pending `connect` (non-blocking) waiting for writability. */
  connecting: { resolve: () => void; reject: (e: Error) => void } | null;
}

export class LoopbackFleet {
  private readonly libc = Deno.dlopen("libc.so.6", SYMBOLS);
  private readonly lib = this.libc.symbols;
  private readonly epfd: number;
  private readonly sockets: (Socket | undefined)[] = [];
  private readonly events = new Uint8Array(EVENT_SIZE * MAX_EVENTS);
  private readonly eventView = new DataView(this.events.buffer);
  private readonly ctlEvent = new Uint8Array(EVENT_SIZE);
  private readonly ctlView = new DataView(this.ctlEvent.buffer);
  private readonly readBuffer = new Uint8Array(64 * 1024);
  private readonly one = new Int32Array([1]);
  private running = false;
  private loop: Promise<void> = Promise.resolve();

  static supported(): boolean {
    return Deno.build.os === "linux" && Deno.build.arch === "x86_64";
  }

  constructor() {
    this.epfd = this.lib.epoll_create1(0);
    if (this.epfd < 0) throw this.error("epoll_create1");
  }

  /** Starts dispatching socket events (until `stop`). */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.dispatch();
  }

  /** Stops dispatching, closes every socket and releases libc. */
  async close(): Promise<void> {
    this.running = false;
    await this.loop;
    for (let fd = 0; fd < this.sockets.length; fd++) this.closeSocket(fd);
    this.lib.close(this.epfd);
    this.libc.close();
  }

  /** Opens a TCP connection to 127.0.0.1:port; resolves with its fd once connected. */
  connect(port: number, handler: SocketHandler): Promise<number> {
    const fd = this.lib.socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) return Promise.reject(this.error("socket"));
    this.lib.setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, this.one, 4);
    const address = new Uint8Array(16);
    const view = new DataView(address.buffer);
    view.setUint16(0, AF_INET, true);
    view.setUint16(2, port, false);
    address.set([127, 0, 0, 1], 4);
    const rc = this.lib.connect(fd, address, 16);
    if (rc < 0) {
      const errno = this.errno();
      if (errno !== EINPROGRESS) {
        this.lib.close(fd);
        return Promise.reject(this.error("connect", errno));
      }
    }
    return new Promise((resolve, reject) => {
      const socket: Socket = { handler, unsent: null, connecting: null };
      this.sockets[fd] = socket;
      if (rc === 0) resolve(fd);
      else socket.connecting = { resolve: () => resolve(fd), reject };
      this.control(EPOLL_CTL_ADD, fd, rc === 0 ? EPOLLIN : EPOLLIN | EPOLLOUT);
    });
  }

  /** Sends bytes (copied if the kernel cannot take them now); false if the socket is gone. */
  write(fd: number, bytes: Uint8Array): boolean {
    const socket = this.sockets[fd];
    if (!socket) return false;
    if (socket.unsent) {
      socket.unsent = concatBytes([socket.unsent, bytes]);
      return true;
    }
    const n = this.sendSome(fd, bytes);
    if (n < 0) return false;
    if (n < bytes.length) {
      socket.unsent = bytes.slice(n);
      this.control(EPOLL_CTL_MOD, fd, EPOLLIN | EPOLLOUT);
    }
    return true;
  }

  closeSocket(fd: number): void {
    if (!this.sockets[fd]) return;
    this.sockets[fd] = undefined;
    this.lib.close(fd); // also removes it from the epoll set
  }

  /** Written bytes, or -1 after closing a failed socket. */
  private sendSome(fd: number, bytes: Uint8Array): number {
    const n = Number(this.lib.write(fd, bytes, BigInt(bytes.length)));
    if (n >= 0) return n;
    const errno = this.errno();
    if (errno === EAGAIN || errno === EINTR) return 0;
    this.fail(fd);
    return -1;
  }

  private async dispatch(): Promise<void> {
    while (this.running) {
      const n = await this.lib.epoll_wait_blocking(this.epfd, this.events, MAX_EVENTS, 50);
      for (let i = 0; i < n; i++) {
        const flags = this.eventView.getUint32(i * EVENT_SIZE, true);
        const fd = this.eventView.getUint32(i * EVENT_SIZE + 4, true);
        const socket = this.sockets[fd];
        if (!socket) continue;
        if (socket.connecting) this.finishConnect(fd, socket);
        else if (flags & EPOLLOUT) this.flush(fd, socket);
        if (flags & (EPOLLIN | EPOLLERR | EPOLLHUP) && this.sockets[fd]) this.readFrom(fd, socket);
      }
    }
  }

  private finishConnect(fd: number, socket: Socket): void {
    const pending = socket.connecting!;
    const value = new Int32Array(1);
    const length = new Uint32Array([4]);
    this.lib.getsockopt(fd, SOL_SOCKET, SO_ERROR, value, length);
    if (value[0] === EINPROGRESS) return;
    socket.connecting = null;
    if (value[0] !== 0) {
      this.closeSocket(fd);
      pending.reject(this.error("connect", value[0]));
      return;
    }
    this.control(EPOLL_CTL_MOD, fd, EPOLLIN);
    pending.resolve();
  }

  private flush(fd: number, socket: Socket): void {
    const unsent = socket.unsent;
    if (!unsent) return;
    const n = this.sendSome(fd, unsent);
    if (n < 0) return;
    socket.unsent = n < unsent.length ? unsent.subarray(n) : null;
    if (!socket.unsent) this.control(EPOLL_CTL_MOD, fd, EPOLLIN);
  }

  private readFrom(fd: number, socket: Socket): void {
    const n = Number(this.lib.read(fd, this.readBuffer, BigInt(this.readBuffer.length)));
    if (n > 0) socket.handler.onData(this.readBuffer.subarray(0, n));
    else if (n === 0) this.fail(fd);
    else if (this.errno() !== EAGAIN) this.fail(fd);
  }

  private fail(fd: number): void {
    const socket = this.sockets[fd];
    this.closeSocket(fd);
    socket?.handler.onClosed();
  }

  private control(op: number, fd: number, flags: number): void {
    this.ctlView.setUint32(0, flags, true);
    this.ctlView.setUint32(4, fd, true);
    this.ctlView.setUint32(8, 0, true);
    if (this.lib.epoll_ctl(this.epfd, op, fd, this.ctlEvent) < 0) throw this.error("epoll_ctl");
  }

  private errno(): number {
    return new Deno.UnsafePointerView(this.lib.__errno_location()!).getInt32();
  }

  private error(call: string, errno = this.errno()): Error {
    const hint = errno === 24 ? " (too many open files)" : "";
    return new Error(`${call} failed: errno ${errno}${hint}`);
  }
}
