/**
 * A throwaway nats-server for tests (cluster mode, issue 23), with JetStream in a temporary
 * directory, on a free loopback port. The test task starts one for the whole run and hands it
 * on as TP_TEST_NATS_URL; a test file run on its own starts its own.
 */
import { freePort } from "./server.ts";

export interface TestNats {
  url: string;
  stop(): Promise<void>;
}

export async function testNats(): Promise<TestNats> {
  const given = Deno.env.get("TP_TEST_NATS_URL");
  if (given) return { url: given, stop: async () => {} };
  return await startNats();
}

/** Starts a new server; `port` restarts one on the address of one stopped before. */
export async function startNats(opts: { port?: number } = {}): Promise<TestNats> {
  const dir = await Deno.makeTempDir({ prefix: "tp-nats-" });
  const port = opts.port ?? freePort();
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command("nats-server", {
      args: ["-a", "127.0.0.1", "-p", String(port), "-js", "-sd", dir],
      stdout: "null",
      stderr: "null",
    }).spawn();
  } catch {
    throw new Error("nats-server not found. Install it with: apt-get install -y nats-server");
  }
  for (let i = 0; i < 100; i++) {
    try {
      (await Deno.connect({ hostname: "127.0.0.1", port })).close();
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return {
    url: `nats://127.0.0.1:${port}`,
    async stop() {
      try {
        child.kill("SIGKILL");
      } catch { /* already gone */ }
      await child.status;
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
}
