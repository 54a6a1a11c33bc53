import {
  AF_INET,
  AF_INET6,
  EAGAIN,
  ECONNABORTED,
  EINTR,
  EMFILE,
  ENFILE,
  EPOLL_CTL_ADD,
  EPOLL_CTL_MOD,
  EPOLLET,
  EPOLLIN,
  EpollLoop,
  EPOLLRDHUP,
  IPPROTO_TCP,
  Libc,
  readSocketAddress,
  SO_REUSEADDR,
  SO_REUSEPORT,
  SOCK_CLOEXEC,
  SOCK_NONBLOCK,
  SOCK_STREAM,
  socketAddress,
  SOL_SOCKET,
  TCP_NODELAY,
} from "../../../lib/net/libc.ts";
import type { LinkInput, LinkSocket } from "../link/device_link.ts";
import { log } from "../../../lib/log.ts";
import { SendThread } from "./send_thread.ts";
import type { AcceptSocket, SocketListener, SocketTransport } from "./transport.ts";

/** One read buffer for every connection: links copy what they keep before the next read. */
const READ_BUFFER = 64 * 1024;
const READ_SIZE = BigInt(READ_BUFFER);
/** How long accepting pauses when the process is out of file descriptors. */
const ACCEPT_BACKOFF_MS = 200;
const DONE = Promise.resolve();

/**
 * Device sockets on libc's epoll (Linux): one `epoll_wait` per turn for all ready sockets,
 * one `read(2)` per readable socket into a shared buffer. Sockets are edge-triggered: a
 * socket whose link is still storing its previous read is simply not read until the link is
 * done (the kernel buffer is the backpressure), so a link never sees two reads at once and
 * no read is copied or queued. Replies and closes go, in order, to a send thread
 * (send_thread.ts): on loopback the kernel's work for one reply (~15 µs, the receiver's side
 * included) was a third of the main thread's time at 20,000 positions/s.
 */
export class EpollTransport implements SocketTransport {
  readonly name = "epoll";
  readonly libc = new Libc();
  readonly readBuffer = new Uint8Array(READ_BUFFER);
  private readonly loop = new EpollLoop(this.libc, (token) => this.event(token));
  /** Started last: nothing above can fail and leave its thread running. */
  readonly sender = new SendThread();
  private readonly listeners = new Map<number, { fd: number; accept: AcceptSocket }>();
  private readonly sockets = new Map<number, EpollSocket>();
  private readonly peer = new Uint8Array(28);
  private readonly peerLength = new Uint32Array(1);
  private lastToken = 0;

  queuedBytes(): number {
    return this.sender.queuedBytes();
  }

  listen(hostname: string, port: number, reusePort: boolean, accept: AcceptSocket): SocketListener {
    const address = socketAddress(hostname, port);
    if (!address) {
      throw new Error(`GATEWAY_IO=epoll needs an IP address as HOSTNAME, not "${hostname}"`);
    }
    const { fn } = this.libc;
    const family = address.length === 16 ? AF_INET : AF_INET6;
    const fd = fn.socket(family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) throw this.libc.error("socket");
    try {
      this.libc.enable(fd, SOL_SOCKET, SO_REUSEADDR);
      if (reusePort) this.libc.enable(fd, SOL_SOCKET, SO_REUSEPORT);
      if (fn.bind(fd, address, address.length) < 0) throw this.libc.error("bind");
      if (fn.listen(fd, 1024) < 0) throw this.libc.error("listen");
      const bound = new Uint8Array(28);
      fn.getsockname(fd, bound, new Uint32Array([bound.length]));
      const token = this.newToken();
      this.listeners.set(token, { fd, accept });
      this.loop.control(EPOLL_CTL_ADD, fd, EPOLLIN, token);
      this.loop.start();
      return {
        port: readSocketAddress(bound).port,
        close: () => {
          if (this.listeners.delete(token)) fn.close(fd);
        },
      };
    } catch (e) {
      fn.close(fd);
      throw e;
    }
  }

  async close(): Promise<void> {
    for (const { fd } of this.listeners.values()) this.libc.fn.close(fd);
    this.listeners.clear();
    for (const socket of [...this.sockets.values()]) socket.close();
    await this.loop.stop();
    await this.sender.stop();
    // Links hear `closed` in a microtask after their socket closed; let them before unloading.
    await DONE;
    this.libc.close();
  }

  /** A socket closed: its token no longer routes events (an old event may still arrive). */
  forget(token: number): void {
    this.sockets.delete(token);
  }

  private event(token: number): void {
    const socket = this.sockets.get(token);
    if (socket) return socket.event();
    const listener = this.listeners.get(token);
    if (listener) this.acceptFrom(token, listener.fd, listener.accept);
  }

  private acceptFrom(token: number, fd: number, accept: AcceptSocket): void {
    const { fn } = this.libc;
    for (;;) {
      this.peerLength[0] = this.peer.length;
      const conn = fn.accept4(fd, this.peer, this.peerLength, SOCK_NONBLOCK | SOCK_CLOEXEC);
      if (conn < 0) {
        const errno = this.libc.errno();
        if (errno === EINTR || errno === ECONNABORTED) continue;
        if (errno === EMFILE || errno === ENFILE) this.pauseAccepting(token, fd);
        return; // EAGAIN: nothing more to accept
      }
      this.libc.enable(conn, IPPROTO_TCP, TCP_NODELAY); // replies leave at once, no Nagle delay
      const { hostname, port } = readSocketAddress(this.peer);
      const socketToken = this.newToken();
      const socket = new EpollSocket(this, conn, socketToken, `${hostname}:${port}`);
      this.sockets.set(socketToken, socket);
      this.loop.control(
        EPOLL_CTL_ADD,
        conn,
        EPOLLIN | EPOLLRDHUP | EPOLLET,
        socketToken,
      );
      socket.input = accept(socket);
    }
  }

  /** Out of descriptors: a level-triggered listener would spin, so it sleeps a little. */
  private pauseAccepting(token: number, fd: number): void {
    this.loop.control(EPOLL_CTL_MOD, fd, 0, token);
    setTimeout(() => {
      if (this.listeners.has(token)) this.loop.control(EPOLL_CTL_MOD, fd, EPOLLIN, token);
    }, ACCEPT_BACKOFF_MS);
  }

  private newToken(): number {
    do {
      this.lastToken = this.lastToken >= 0xfffffff0 ? 1 : this.lastToken + 1;
    } while (this.sockets.has(this.lastToken) || this.listeners.has(this.lastToken));
    return this.lastToken;
  }
}

class EpollSocket implements LinkSocket {
  input!: LinkInput;
  private closed = false;
  /** The link is handling a read; the socket is not read meanwhile. */
  private busy = false;
  /** Data may be waiting in the kernel (an edge came, or the last read filled the buffer). */
  private readable = false;

  constructor(
    private readonly t: EpollTransport,
    private readonly fd: number,
    private readonly token: number,
    readonly remote: string,
  ) {}

  event(): void {
    // Every event (data, hang-up, error) is answered by a read, which tells which it was.
    this.readable = true;
    if (!this.busy && !this.closed) this.read();
  }

  /** Queued for the send thread, in order; resolves at once. */
  write(bytes: Uint8Array): Promise<void> {
    if (!this.closed) this.t.sender.send(this.fd, bytes);
    return DONE;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.t.forget(this.token);
    // Closed by the send thread after what is queued for it (the fd number stays taken
    // until then, so no new connection can receive this one's bytes).
    this.t.sender.close(this.fd);
    queueMicrotask(() => {
      try {
        this.input.closed();
      } catch (e) {
        // A microtask's exception would end the process: one connection's must not.
        log.area("gateway").error("closing a link failed", e);
      }
    });
  }

  private read(): void {
    const buf = this.t.readBuffer;
    const n = Number(this.t.libc.fn.read(this.fd, buf, READ_SIZE));
    if (n > 0) {
      this.readable = n === buf.length;
      this.busy = true;
      this.input.data(buf.subarray(0, n)).then(this.afterData, this.afterFailure);
    } else if (n === 0) {
      this.close(); // the device closed its side
    } else {
      const errno = this.t.libc.errno();
      if (errno === EINTR) this.read();
      else if (errno === EAGAIN) this.readable = false;
      else this.close();
    }
  }

  private readonly afterData = (keep: boolean) => {
    this.busy = false;
    if (!keep) this.close();
    else if (this.readable && !this.closed) this.read();
  };

  private readonly afterFailure = () => {
    this.busy = false;
    this.close();
  };
}
