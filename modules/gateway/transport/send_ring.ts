/**
 * A single-producer, single-consumer queue of socket sends in a SharedArrayBuffer: the main
 * thread puts "send these bytes on fd N" and "close fd N" records, the send thread
 * (send_worker.ts) takes them in order. Handing over costs a copy of a few bytes and, only
 * when the send thread sleeps, one futex wake, instead of a structured clone per message.
 *
 * Layout: a header of Int32 cells (consumer position, producer position, sleeping flag),
 * then the record area. A record is kind, fd, length (Int32 each) and the bytes, padded to
 * 4; a record that does not fit before the end is preceded by a WRAP marker and starts at 0.
 * The producer never fills the area completely, so head === tail means empty.
 */

export const enum SendRecord {
  Wrap = 0,
  Send = 1,
  Close = 2,
  Stop = 3,
}

const HEAD = 0, TAIL = 1, SLEEPING = 2;
const HEADER_BYTES = 16;
const RECORD_HEADER = 12;

export interface TakenRecord {
  kind: SendRecord;
  fd: number;
  /** A view into the ring, valid until `release`. */
  bytes: Uint8Array;
}

/** The ring's memory; create on one side and hand `buffer` to the other. */
export function createSendRing(capacityBytes: number): SharedArrayBuffer {
  return new SharedArrayBuffer(HEADER_BYTES + (Math.ceil(capacityBytes / 4) * 4));
}

const align4 = (n: number) => (n + 3) & ~3;

/** Views of the ring's memory, the same on both ends. */
abstract class RingViews {
  protected readonly header: Int32Array;
  protected readonly ints: Int32Array;
  protected readonly bytes: Uint8Array;
  protected readonly capacity: number;

  constructor(buffer: SharedArrayBuffer) {
    this.header = new Int32Array(buffer, 0, HEADER_BYTES / 4);
    this.capacity = buffer.byteLength - HEADER_BYTES;
    this.ints = new Int32Array(buffer, HEADER_BYTES, this.capacity / 4);
    this.bytes = new Uint8Array(buffer, HEADER_BYTES, this.capacity);
  }
}

/** The main thread's end. */
export class SendRingWriter extends RingViews {
  private tail = Atomics.load(this.header, TAIL);

  /** Largest payload one record can carry. */
  get maxPayload(): number {
    return Math.floor(this.capacity / 2) - RECORD_HEADER;
  }

  /** Bytes written and not yet taken by the send thread (records with their headers). */
  usedBytes(): number {
    const head = Atomics.load(this.header, HEAD);
    return this.tail >= head ? this.tail - head : this.capacity - head + this.tail;
  }

  /** Appends a record; false when the ring has no room now (nothing written). */
  put(kind: SendRecord, fd: number, payload?: Uint8Array): boolean {
    const length = payload ? payload.length : 0;
    const size = RECORD_HEADER + align4(length);
    const head = Atomics.load(this.header, HEAD);
    let at = this.tail;
    const free = head > at ? head - at : this.capacity - at + head;
    const wraps = at + size > this.capacity;
    // Room for the record (after a wrap, from 0), and never all of it: head === tail is empty.
    const needed = wraps ? this.capacity - at + size : size;
    if (needed >= free) return false;
    if (wraps) {
      if (at + 4 <= this.capacity) this.ints[at / 4] = SendRecord.Wrap;
      at = 0;
    }
    const i = at / 4;
    this.ints[i] = kind;
    this.ints[i + 1] = fd;
    this.ints[i + 2] = length;
    if (payload) this.bytes.set(payload, at + RECORD_HEADER);
    at += size;
    this.tail = at === this.capacity ? 0 : at;
    Atomics.store(this.header, TAIL, this.tail);
    if (Atomics.load(this.header, SLEEPING)) Atomics.notify(this.header, TAIL);
    return true;
  }
}

/** The send thread's end. */
export class SendRingReader extends RingViews {
  private head = Atomics.load(this.header, HEAD);
  private next = 0;

  /** The oldest record, or null when the ring is empty. */
  take(): TakenRecord | null {
    for (;;) {
      if (this.head === Atomics.load(this.header, TAIL)) return null;
      const at = this.head;
      if (at + 4 > this.capacity || this.ints[at / 4] === SendRecord.Wrap) {
        this.head = 0;
        continue;
      }
      const i = at / 4;
      const length = this.ints[i + 2];
      this.next = at + RECORD_HEADER + align4(length);
      if (this.next === this.capacity) this.next = 0;
      return {
        kind: this.ints[i],
        fd: this.ints[i + 1],
        bytes: this.bytes.subarray(at + RECORD_HEADER, at + RECORD_HEADER + length),
      };
    }
  }

  /** Frees the record last taken (its bytes may be overwritten from now on). */
  release(): void {
    this.head = this.next;
    Atomics.store(this.header, HEAD, this.head);
  }

  /**
   * Sleeps until the producer adds a record (or `timeoutMs` passes). The flag tells the
   * producer to wake us; waiting on the tail cell's current value loses no wake-up.
   */
  wait(timeoutMs?: number): void {
    Atomics.store(this.header, SLEEPING, 1);
    const tail = Atomics.load(this.header, TAIL);
    if (tail === this.head) Atomics.wait(this.header, TAIL, tail, timeoutMs);
    Atomics.store(this.header, SLEEPING, 0);
  }
}
