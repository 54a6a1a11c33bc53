/** A raw TCP device for gateway tests: write frames, read replies, see when the server hangs up. */

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class RawDevice {
  private buf: number[] = [];
  /** The server closed (or reset) the connection. */
  closedByServer = false;
  private readonly reading: Promise<void>;

  private constructor(readonly conn: Deno.TcpConn) {
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

  static async open(port: number): Promise<RawDevice> {
    return new RawDevice(await Deno.connect({ hostname: "127.0.0.1", port }));
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
