import assert from "node:assert/strict";
import { concatBytes } from "../../lib/bytes.ts";
import { LoopbackFleet, type SocketHandler } from "./loopback_fleet.ts";

/** Collects what a socket receives; `closed` resolves when the fleet reports it closed. */
function collector() {
  const chunks: Uint8Array[] = [];
  let onClose!: () => void;
  const closed = new Promise<void>((r) => (onClose = r));
  const handler: SocketHandler = {
    onData: (bytes) => chunks.push(bytes.slice()),
    onClosed: () => onClose(),
  };
  const received = () => concatBytes(chunks);
  return { handler, closed, received };
}

async function until(check: () => boolean, what: string, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

Deno.test({
  name: "loopback fleet: echoes, large writes in order, peer close, refused connect",
  ignore: !LoopbackFleet.supported(),
  async fn() {
    const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const port = (listener.addr as Deno.NetAddr).port;
    // Echo server that reads slowly at first, so a large write cannot go out at once.
    const served = (async () => {
      const conn = await listener.accept();
      await new Promise((r) => setTimeout(r, 200));
      const buf = new Uint8Array(64 * 1024);
      for (;;) {
        const n = await conn.read(buf);
        if (n === null) break;
        let off = 0;
        while (off < n) off += await conn.write(buf.subarray(off, n));
        if (buf[n - 1] === 0xff) break; // end marker: close from the server side
      }
      conn.close();
    })();

    const fleet = new LoopbackFleet();
    fleet.start();
    try {
      const c = collector();
      const fd = await fleet.connect(port, c.handler);
      const big = new Uint8Array(8 * 1024 * 1024);
      for (let i = 0; i < big.length; i++) big[i] = i % 251;
      big[big.length - 1] = 0xff;
      assert.equal(fleet.write(fd, big.subarray(0, 1000)), true);
      assert.equal(fleet.write(fd, big.subarray(1000)), true);
      await c.closed; // the server echoed everything, then closed
      await served;
      assert.equal(c.received().length, big.length);
      assert.deepEqual(c.received(), big);
      assert.equal(fleet.write(fd, new Uint8Array([1])), false);

      // Nothing listens on a closed listener's port any more.
      listener.close();
      await assert.rejects(() => fleet.connect(port, collector().handler), /connect failed/);
    } finally {
      await fleet.close();
    }
  },
});

Deno.test({
  name: "loopback fleet: many sockets at once, each gets its own replies",
  ignore: !LoopbackFleet.supported(),
  async fn() {
    const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const port = (listener.addr as Deno.NetAddr).port;
    const conns: Deno.Conn[] = [];
    const accepting = (async () => {
      for await (const conn of listener) {
        conns.push(conn);
        (async () => {
          const buf = new Uint8Array(16);
          for (;;) {
            const n = await conn.read(buf).catch(() => null);
            if (n === null) return;
            // Reply with the byte plus one: a reply that can only come from this connection.
            await conn.write(buf.subarray(0, n).map((b) => b + 1)).catch(() => {});
          }
        })();
      }
    })();
    const fleet = new LoopbackFleet();
    fleet.start();
    try {
      const sockets = await Promise.all(
        Array.from({ length: 200 }, async (_, i) => {
          const c = collector();
          const fd = await fleet.connect(port, c.handler);
          return { i, fd, c };
        }),
      );
      for (const s of sockets) fleet.write(s.fd, new Uint8Array([s.i % 200]));
      await until(() => sockets.every((s) => s.c.received().length === 1), "200 replies");
      for (const s of sockets) assert.deepEqual([...s.c.received()], [(s.i % 200) + 1]);
    } finally {
      await fleet.close();
      listener.close();
      for (const c of conns) c.close();
      await accepting;
    }
  },
});
