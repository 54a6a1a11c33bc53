import assert from "node:assert/strict";
import { concatBytes } from "../../../lib/bytes.ts";
import { epollSupported } from "../../../lib/net/libc.ts";
import type { LinkInput, LinkSocket } from "../link/device_link.ts";
import { EpollTransport } from "./epoll_transport.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(check: () => boolean, what: string, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

/** Reads everything a client connection receives until the server closes it. */
async function readAll(conn: Deno.Conn, delayMs = 0): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  const buf = new Uint8Array(16 * 1024);
  for (;;) {
    if (delayMs) await sleep(delayMs);
    const n = await conn.read(buf).catch(() => null);
    if (n === null) return concatBytes(chunks);
    chunks.push(buf.slice(0, n));
  }
}

/** One accepted socket, with what its link heard. */
interface Accepted {
  socket: LinkSocket;
  reads: Uint8Array[];
  closedCalls: number;
  /** Highest number of `data` calls in progress at once. */
  maxConcurrent: number;
}

function serve(
  transport: EpollTransport,
  handle: (a: Accepted, bytes: Uint8Array) => Promise<boolean>,
  hostname = "127.0.0.1",
) {
  const accepted: Accepted[] = [];
  const listener = transport.listen(hostname, 0, false, (socket): LinkInput => {
    const a: Accepted = { socket, reads: [], closedCalls: 0, maxConcurrent: 0 };
    accepted.push(a);
    let running = 0;
    return {
      async data(bytes) {
        a.reads.push(bytes.slice()); // the view is only valid until the first await
        a.maxConcurrent = Math.max(a.maxConcurrent, ++running);
        try {
          return await handle(a, bytes);
        } finally {
          running--;
        }
      },
      closed: () => void a.closedCalls++,
    };
  });
  return { accepted, port: listener.port, listener };
}

Deno.test({
  name: "epoll transport: one read at a time per socket, in order, answered after each",
  ignore: !epollSupported(),
  async fn() {
    const transport = new EpollTransport();
    const { accepted, port } = serve(transport, async (a, bytes) => {
      const copy = bytes.slice();
      await sleep(30); // a slow store: more data arrives meanwhile
      await a.socket.write(copy);
      return true;
    });
    const client = await Deno.connect({ hostname: "127.0.0.1", port });
    const echoed = readAll(client);
    const sent: number[] = [];
    for (let i = 0; i < 50; i++) {
      const chunk = Array.from({ length: 100 }, (_, k) => (i * 7 + k) & 0xff);
      sent.push(...chunk);
      await client.write(new Uint8Array(chunk));
      if (i % 10 === 0) await sleep(15);
    }
    await until(
      () => accepted[0]?.reads.reduce((n, r) => n + r.length, 0) === sent.length,
      "reads",
    );
    await sleep(50);
    client.closeWrite();
    await until(() => accepted[0].closedCalls === 1, "closed");
    assert.deepEqual([...await echoed], sent);
    assert.equal(accepted[0].maxConcurrent, 1);
    assert.ok(accepted[0].reads.length < 50, "reads that came while busy are taken together");
    assert.match(accepted[0].socket.remote, /^127\.0\.0\.1:\d+$/);
    client.close();
    await transport.close();
    assert.equal(accepted[0].closedCalls, 1);
  },
});

Deno.test({
  name: "epoll transport: a large reply to a slow reader goes out whole and in order",
  ignore: !epollSupported(),
  async fn() {
    const transport = new EpollTransport();
    const big = Uint8Array.from({ length: 700_000 }, (_, i) => (i * 31) & 0xff);
    let writeSettled = false;
    const { port } = serve(transport, async (a) => {
      const first = a.socket.write(big.subarray(0, 400_000));
      const second = a.socket.write(big.subarray(400_000));
      await second;
      await first;
      writeSettled = true;
      a.socket.close();
      return false;
    });
    const client = await Deno.connect({ hostname: "127.0.0.1", port });
    await client.write(new Uint8Array([1]));
    const received = await readAll(client, 2);
    assert.ok(writeSettled);
    assert.equal(received.length, big.length);
    assert.deepEqual(received, big);
    client.close();
    await transport.close();
  },
});

Deno.test({
  name: "epoll transport: a peer that never reads is cut once 1 MiB waits; port in use refused",
  ignore: !epollSupported(),
  async fn() {
    const transport = new EpollTransport();
    const { accepted, port } = serve(transport, (a) => {
      // 16 MiB: more than the kernel buffers of both ends hold.
      for (let i = 0; i < 256; i++) void a.socket.write(new Uint8Array(64 * 1024));
      return Promise.resolve(true);
    });
    const client = await Deno.connect({ hostname: "127.0.0.1", port });
    await client.write(new Uint8Array([1]));
    await until(() => accepted[0]?.closedCalls === 1, "cut");
    assert.throws(
      () =>
        transport.listen(
          "127.0.0.1",
          port,
          false,
          () => ({ data: () => Promise.resolve(true), closed() {} }),
        ),
      Deno.errors.AddrInUse,
    );
    client.close();
    await transport.close();
  },
});

/** Whether this machine has an IPv6 loopback to test on. */
function hasIpv6Loopback(): boolean {
  try {
    Deno.listen({ hostname: "::1", port: 0 }).close();
    return true;
  } catch {
    return false;
  }
}

Deno.test({
  name: "epoll transport: IPv6 listeners; the remote address reads as Deno writes it",
  ignore: !epollSupported() || !hasIpv6Loopback(),
  async fn() {
    const transport = new EpollTransport();
    const { accepted, port } = serve(transport, () => Promise.resolve(true), "::1");
    const client = await Deno.connect({ hostname: "::1", port });
    await until(() => accepted.length === 1, "accept");
    const local = client.localAddr as Deno.NetAddr;
    assert.equal(accepted[0].socket.remote, `${local.hostname}:${local.port}`);
    client.close();
    await until(() => accepted[0].closedCalls === 1, "closed");
    await transport.close();
  },
});
