import type { LinkInput, LinkSocket } from "../link/device_link.ts";
import type { AcceptSocket, SocketListener, SocketTransport } from "./transport.ts";

/**
 * Bytes read per call. Each connection holds one such buffer for its lifetime, so it is
 * kept small (frames larger than this are assembled by the splitters across reads): with
 * 16 KiB, 10,000 idle connections used ~100 MiB more RSS (docs/performance.md).
 */
const READ_BUFFER = 4 * 1024;
/** How long accepting pauses when the process is out of file descriptors. */
const ACCEPT_BACKOFF_MS = 200;

/** Device sockets on `Deno.listen`: works everywhere Deno runs. */
export class DenoTransport implements SocketTransport {
  readonly name = "deno";

  listen(hostname: string, port: number, reusePort: boolean, accept: AcceptSocket): SocketListener {
    const listener = Deno.listen({ hostname, port, transport: "tcp", reusePort });
    let closed = false;
    (async () => {
      while (!closed) {
        try {
          for await (const conn of listener) {
            // Acknowledgements are small writes that must leave at once (no Nagle delay).
            try {
              (conn as Deno.TcpConn).setNoDelay(true);
            } catch { /* already closed */ }
            const socket = new DenoSocket(conn);
            socket.pump(accept(socket)).catch(() => {});
          }
          return; // listener closed
        } catch (e) {
          if (closed || e instanceof Deno.errors.BadResource) return;
          // Out of descriptors (EMFILE): the listener is still open; accept again shortly
          // instead of never again.
          await new Promise((r) => setTimeout(r, ACCEPT_BACKOFF_MS));
        }
      }
    })();
    return {
      port: (listener.addr as Deno.NetAddr).port,
      close() {
        closed = true;
        try {
          listener.close();
        } catch { /* closed */ }
      },
    };
  }

  /** Each socket's writes are awaited in its own promise chain: nothing shared to measure. */
  queuedBytes(): number {
    return 0;
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

class DenoSocket implements LinkSocket {
  readonly remote: string;
  private closed = false;
  // Writes go out in order through one drain loop (an acknowledgement per read must not
  // cost a promise chain of its own); each write's promise settles when the queue is empty.
  private readonly outbox: Uint8Array[] = [];
  private draining: Promise<void> | null = null;

  constructor(private readonly conn: Deno.Conn) {
    const addr = conn.remoteAddr as Deno.NetAddr;
    this.remote = `${addr.hostname}:${addr.port}`;
  }

  write(bytes: Uint8Array): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.outbox.push(bytes);
    return this.draining ??= this.drain();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    try {
      this.conn.close();
    } catch { /* already closed */ }
  }

  /** Reads until the connection ends, one read at a time, then reports it closed. */
  async pump(input: LinkInput): Promise<void> {
    const buf = new Uint8Array(READ_BUFFER);
    try {
      while (!this.closed) {
        const n = await this.conn.read(buf);
        if (n === null || !(await input.data(buf.subarray(0, n)))) break;
      }
    } catch {
      // A reset or broken socket ends only this connection.
    } finally {
      this.close();
      input.closed();
    }
  }

  private async drain(): Promise<void> {
    try {
      while (this.outbox.length && !this.closed) {
        const bytes = this.outbox.shift()!;
        let off = await this.conn.write(bytes);
        while (off < bytes.length && !this.closed) {
          off += await this.conn.write(bytes.subarray(off));
        }
      }
    } catch {
      this.close();
    } finally {
      this.draining = null;
    }
  }
}
