/**
 * A raw TCP device for gateway tests: write frames, read replies, see when the server hangs up.
 * The one device helper of the gateway tests (integration, limits, identity, compile).
 */

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Cuts the server's byte stream into frames (the simulator's stream readers). */
export interface StreamReader<F> {
  push(chunk: Uint8Array): F[];
}

export class RawDevice<F = never> {
  private buf: number[] = [];
  /** Frames the reader cut that `frame()` has not handed out yet. */
  private frames: F[] = [];
  /** The server closed (or reset) the connection. */
  closedByServer = false;
  private readonly reading: Promise<void>;

  private constructor(readonly conn: Deno.TcpConn, private readonly reader?: StreamReader<F>) {
    this.reading = (async () => {
      const chunk = new Uint8Array(4096);
      try {
        for (;;) {
          const n = await conn.read(chunk);
          if (n === null) break;
          this.buf.push(...chunk.subarray(0, n));
        }
      } catch { /* reset, or closed by us */ }
      this.closedByServer = true;
    })();
  }

  /** Connects to a device port on loopback; `reader` enables `frame()`. */
  static async open<F = never>(port: number, reader?: StreamReader<F>): Promise<RawDevice<F>> {
    return new RawDevice(await Deno.connect({ hostname: "127.0.0.1", port }), reader);
  }

  async send(bytes: Uint8Array): Promise<void> {
    await this.conn.write(bytes);
  }

  /** Waits until `n` reply bytes arrived and takes them. */
  async take(n: number, timeoutMs = 5000): Promise<Uint8Array> {
    const end = Date.now() + timeoutMs;
    while (this.buf.length < n) {
      if (Date.now() > end || this.closedByServer) {
        throw new Error(`no reply (have ${this.buf.length} bytes)`);
      }
      await sleep(10);
    }
    return new Uint8Array(this.buf.splice(0, n));
  }

  /** The next frame from the server, as the reader given to `open` cuts the stream. */
  async frame(timeoutMs = 5000): Promise<F> {
    if (!this.reader) throw new Error("RawDevice.open was given no frame reader");
    const end = Date.now() + timeoutMs;
    for (;;) {
      if (this.buf.length) {
        this.frames.push(...this.reader.push(new Uint8Array(this.buf.splice(0))));
      }
      if (this.frames.length) return this.frames.shift()!;
      if (Date.now() > end || this.closedByServer) throw new Error("no reply frame");
      await sleep(10);
    }
  }

  async waitClosed(timeoutMs = 5000): Promise<void> {
    const end = Date.now() + timeoutMs;
    while (!this.closedByServer) {
      if (Date.now() > end) throw new Error("server did not close the connection");
      await sleep(20);
    }
  }

  /** Closes our side and waits for the reader to finish. */
  async done(): Promise<void> {
    try {
      this.conn.close();
    } catch { /* closed */ }
    await this.reading;
  }
}
