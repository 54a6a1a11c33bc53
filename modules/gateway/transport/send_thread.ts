import { log } from "../../../lib/log.ts";
import { createSendRing, SendRecord, SendRingWriter } from "./send_ring.ts";

/** Ring size: ~200,000 acknowledgements, far more than one event-loop turn produces. */
const RING_BYTES = 4 * 1024 * 1024;

/**
 * The main thread's handle on the send thread (send_worker.ts): sends and closes are queued
 * in order through a shared ring. If the ring is ever full, records wait here, in order,
 * and are retried shortly.
 */
export class SendThread {
  private readonly worker = new Worker(new URL("./send_worker.ts", import.meta.url), {
    type: "module",
  });
  private readonly ring: SendRingWriter;
  private readonly overflow: [SendRecord, number, Uint8Array | undefined][] = [];
  private retry: ReturnType<typeof setTimeout> | undefined;
  private readonly stopped: Promise<void>;

  constructor() {
    const buffer = createSendRing(RING_BYTES);
    this.ring = new SendRingWriter(buffer);
    this.stopped = new Promise((resolve) => {
      this.worker.onmessage = () => resolve();
      this.worker.onerror = (e) => {
        e.preventDefault();
        log.area("gateway").error(`send thread failed: ${e.message}`);
        resolve();
      };
    });
    this.worker.postMessage({ ring: buffer });
  }

  send(fd: number, bytes: Uint8Array): void {
    const max = this.ring.maxPayload;
    for (let at = 0; at < bytes.length; at += max) {
      this.put(SendRecord.Send, fd, bytes.length <= max ? bytes : bytes.subarray(at, at + max));
    }
  }

  /** Bytes queued for the send thread: in the ring and waiting for room in it (metrics). */
  queuedBytes(): number {
    let n = this.ring.usedBytes();
    for (const [, , bytes] of this.overflow) n += bytes?.length ?? 0;
    return n;
  }

  /** Closes the fd after everything queued for it went out. */
  close(fd: number): void {
    this.put(SendRecord.Close, fd);
  }

  /** Performs what is queued, then ends the thread. */
  async stop(): Promise<void> {
    this.put(SendRecord.Stop, -1);
    while (this.overflow.length) await new Promise((r) => setTimeout(r, 1));
    clearTimeout(this.retry);
    await this.stopped;
    this.worker.terminate();
  }

  private put(kind: SendRecord, fd: number, bytes?: Uint8Array): void {
    if (!this.overflow.length && this.ring.put(kind, fd, bytes)) return;
    this.overflow.push([kind, fd, bytes?.slice()]);
    this.retry ??= setTimeout(() => this.drainOverflow(), 1);
  }

  private drainOverflow(): void {
    this.retry = undefined;
    let i = 0;
    for (; i < this.overflow.length; i++) {
      const [kind, fd, bytes] = this.overflow[i];
      if (!this.ring.put(kind, fd, bytes)) break;
    }
    this.overflow.splice(0, i);
    if (this.overflow.length) this.retry = setTimeout(() => this.drainOverflow(), 1);
  }
}
