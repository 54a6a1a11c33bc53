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
 * Linux on x86-64 or arm64 (lib/net/libc.ts); the bench checks that before using it.
 */
import { concatBytes } from "../../lib/bytes.ts";
import {
  EAGAIN,
  EINPROGRESS,
  EINTR,
  EPOLL_CTL_ADD,
  EPOLL_CTL_MOD,
  EPOLLERR,
  EPOLLHUP,
  EPOLLIN,
  EpollLoop,
  EPOLLOUT,
  epollSupported,
  IPPROTO_TCP,
  Libc,
  MSG_NOSIGNAL,
  SO_ERROR,
  SOCK_CLOEXEC,
  SOCK_NONBLOCK,
  SOCK_STREAM,
  socketAddress,
  SOL_SOCKET,
  TCP_NODELAY,
} from "../../lib/net/libc.ts";

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
  private readonly libc = new Libc();
  private readonly lib = this.libc.fn;
  private readonly loop = new EpollLoop(this.libc, (fd, flags) => this.event(fd, flags), 2048);
  private readonly sockets: (Socket | undefined)[] = [];
  private readonly readBuffer = new Uint8Array(64 * 1024);

  static supported(): boolean {
    return epollSupported();
  }

  /** Starts dispatching socket events (until `close`). */
  start(): void {
    this.loop.start();
  }

  /** Stops dispatching, closes every socket and releases libc. */
  async close(): Promise<void> {
    await this.loop.stop();
    for (let fd = 0; fd < this.sockets.length; fd++) this.closeSocket(fd);
    this.libc.close();
  }

  /** Opens a TCP connection to 127.0.0.1:port; resolves with its fd once connected. */
  connect(port: number, handler: SocketHandler): Promise<number> {
    const fd = this.lib.socket(2, /* AF_INET */ SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) return Promise.reject(this.libc.error("socket"));
    this.libc.enable(fd, IPPROTO_TCP, TCP_NODELAY);
    const rc = this.lib.connect(fd, socketAddress("127.0.0.1", port)!, 16);
    if (rc < 0) {
      const errno = this.libc.errno();
      if (errno !== EINPROGRESS) {
        this.lib.close(fd);
        return Promise.reject(this.libc.error("connect", errno));
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
    const n = Number(this.lib.send(fd, bytes, BigInt(bytes.length), MSG_NOSIGNAL));
    if (n >= 0) return n;
    const errno = this.libc.errno();
    if (errno === EAGAIN || errno === EINTR) return 0;
    this.fail(fd);
    return -1;
  }

  private event(fd: number, flags: number): void {
    const socket = this.sockets[fd];
    if (!socket) return;
    if (socket.connecting) this.finishConnect(fd, socket);
    else if (flags & EPOLLOUT) this.flush(fd, socket);
    if (flags & (EPOLLIN | EPOLLERR | EPOLLHUP) && this.sockets[fd]) this.readFrom(fd, socket);
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
      pending.reject(this.libc.error("connect", value[0]));
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
    else if (this.libc.errno() !== EAGAIN) this.fail(fd);
  }

  private fail(fd: number): void {
    const socket = this.sockets[fd];
    this.closeSocket(fd);
    socket?.handler.onClosed();
  }

  private control(op: number, fd: number, flags: number): void {
    this.loop.control(op, fd, flags, fd);
  }
}
