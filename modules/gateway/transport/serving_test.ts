import assert from "node:assert/strict";
import { serveDevices } from "./serving.ts";

Deno.test("gateway serving: workers sharing a port refuse one another process already holds", async () => {
  const holder = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (holder.addr as Deno.NetAddr).port;
  try {
    await assert.rejects(
      serveDevices({
        hostname: "127.0.0.1",
        ports: { gt06: port, jt808: 0, h02: 0 },
        workers: 2,
        io: "auto",
        idleMs: 1000,
        loginMs: 1000,
        maxConnections: 100,
        // Never reached: the port probe fails first.
        directory: {} as never,
        ingestor: {} as never,
        connections: {} as never,
        identity: {} as never,
        bus: {} as never,
        onCommandReply: () => {},
        onIdentified: () => {},
        log: () => {},
      }),
      Deno.errors.AddrInUse,
    );
  } finally {
    holder.close();
  }
});
