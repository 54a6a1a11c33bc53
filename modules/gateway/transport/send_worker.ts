/// <reference lib="deno.worker" />
/**
 * The gateway's send thread: takes "send bytes on fd" and "close fd" records from the ring
 * the epoll transport fills (send_ring.ts) and performs them, so the kernel's TCP work for
 * every reply (on loopback, ~15 µs each, including the receiver's side) leaves the main
 * thread, which decodes and commits. Records of one fd are done in order.
 *
 * A socket that cannot take everything now (its peer reads slowly) keeps the rest here and
 * gets it when writable again (this thread's own epoll set); a peer that lets more than
 * MAX_PENDING wait is shut down, which the main thread sees as a hang-up and closes.
 */
import {
  EAGAIN,
  EINTR,
  EPOLL_CTL_ADD,
  EPOLL_CTL_DEL,
  EPOLL_DATA_OFFSET,
  EPOLL_EVENT_SIZE,
  EPOLLOUT,
  Libc,
  MSG_DONTWAIT,
  MSG_NOSIGNAL,
  SHUT_RDWR,
} from "../../../lib/net/libc.ts";
import { concatBytes } from "../../../lib/bytes.ts";
import { SendRecord, SendRingReader } from "./send_ring.ts";

const MAX_PENDING = 1024 * 1024;
/** How long a closed socket's pending bytes may still take to go out. */
const CLOSE_LINGER_MS = 10_000;
/** How often sockets with pending bytes are looked at while no new record comes. */
const PENDING_POLL_MS = 5;

self.onmessage = (e: MessageEvent<{ ring: SharedArrayBuffer }>) => {
  run(new SendRingReader(e.data.ring));
  self.postMessage("stopped");
  self.close();
};

function run(ring: SendRingReader): void {
  const libc = new Libc();
  const { fn } = libc;
  const epfd = fn.epoll_create1(0x80000);
  const events = new Uint8Array(EPOLL_EVENT_SIZE * 256);
  const eventView = new DataView(events.buffer);
  const ctl = new Uint8Array(EPOLL_EVENT_SIZE);
  const ctlView = new DataView(ctl.buffer);
  /** Bytes a socket did not take yet, by fd. */
  const pending = new Map<number, Uint8Array>();
  /** Closed by the main thread while bytes were pending: closed once sent, or at the deadline. */
  const closing = new Map<number, number>();

  /** Bytes sent (maybe fewer), or -1 when the socket failed (its reads will tell). */
  const sendSome = (fd: number, bytes: Uint8Array): number => {
    const n = Number(fn.send(fd, bytes, BigInt(bytes.length), MSG_NOSIGNAL | MSG_DONTWAIT));
    if (n >= 0) return n;
    const errno = libc.errno();
    return errno === EAGAIN || errno === EINTR ? 0 : -1;
  };
  const watch = (fd: number, on: boolean) => {
    ctlView.setUint32(0, EPOLLOUT, true);
    ctlView.setUint32(EPOLL_DATA_OFFSET, fd, true);
    fn.epoll_ctl(epfd, on ? EPOLL_CTL_ADD : EPOLL_CTL_DEL, fd, ctl);
  };
  const drop = (fd: number) => {
    if (pending.delete(fd)) watch(fd, false);
    if (closing.delete(fd)) fn.close(fd);
  };
  const close = (fd: number) => {
    if (pending.has(fd)) closing.set(fd, Date.now() + CLOSE_LINGER_MS);
    else fn.close(fd);
  };
  const send = (fd: number, bytes: Uint8Array) => {
    const waiting = pending.get(fd);
    if (waiting) {
      if (waiting.length + bytes.length > MAX_PENDING) {
        fn.shutdown(fd, SHUT_RDWR); // the main thread sees the hang-up and closes
        drop(fd);
      } else {
        pending.set(fd, concatBytes([waiting, bytes]));
      }
      return;
    }
    const n = sendSome(fd, bytes);
    if (n < 0 || n === bytes.length) return;
    pending.set(fd, bytes.slice(n));
    watch(fd, true);
  };
  const flushWritable = () => {
    const n = fn.epoll_wait_here(epfd, events, 256, 0);
    for (let i = 0; i < n; i++) {
      const fd = eventView.getUint32(i * EPOLL_EVENT_SIZE + EPOLL_DATA_OFFSET, true);
      const bytes = pending.get(fd);
      if (!bytes) continue;
      const sent = sendSome(fd, bytes);
      if (sent < 0 || sent === bytes.length) drop(fd);
      else pending.set(fd, bytes.subarray(sent));
    }
    if (closing.size) {
      const now = Date.now();
      for (const [fd, deadline] of closing) if (now > deadline) drop(fd);
    }
  };

  for (;;) {
    let record;
    while ((record = ring.take())) {
      const { kind, fd, bytes } = record;
      if (kind === SendRecord.Stop) {
        ring.release();
        for (const fd of [...closing.keys()]) drop(fd);
        fn.close(epfd);
        libc.close();
        return;
      }
      if (kind === SendRecord.Send) send(fd, bytes);
      else if (kind === SendRecord.Close) close(fd);
      ring.release();
    }
    if (pending.size) flushWritable();
    ring.wait(pending.size ? PENDING_POLL_MS : undefined);
  }
}
