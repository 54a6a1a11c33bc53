/** Starts the product as a real process on a free loopback port, for integration and e2e tests. */
import { RUN_MAIN_ARGS } from "../../lib/deno_child.ts";
import { serverBackendEnv } from "./test_kv.ts";
import { freePort } from "./ports.ts";

export { freePort };

export interface ServerProcess {
  url: string;
  port: number;
  dataDir: string;
  /** Its PostgreSQL database in the test task's PostgreSQL pass (TP_TEST_BACKEND=postgres). */
  databaseUrl?: string;
  output(): string;
  /** SIGKILL: no shutdown, no flush. */
  kill(): void;
  stop(): Promise<void>;
}

const ROOT = new URL("../../", import.meta.url).pathname;

/**
 * Runs `main.ts` (or a compiled binary) with the given environment and waits until it
 * answers /health. The build in build/ must exist (the test task builds it first).
 * With TP_TEST_BACKEND=postgres it runs in cluster mode on its data folder's database and the
 * run's NATS, unless `env` sets DATABASE_URL or NATS_URL itself (several instances, one store).
 */
export async function startServer(
  env: Record<string, string> = {},
  opts: { command?: string[]; dataDir?: string; cwd?: string } = {},
): Promise<ServerProcess> {
  const port = freePort();
  const dataDir = opts.dataDir ?? await Deno.makeTempDir({ prefix: "tp-e2e-" });
  const backendEnv = await serverBackendEnv(dataDir, env);
  const [cmd, ...args] = opts.command ??
    [Deno.execPath(), ...RUN_MAIN_ARGS];
  const child = new Deno.Command(cmd, {
    args,
    cwd: opts.cwd ?? ROOT,
    env: {
      PORT: String(port),
      HOSTNAME: "127.0.0.1",
      DATA_DIR: dataDir,
      CAPTCHA: "off",
      GT06_PORT: String(freePort()),
      JT808_PORT: String(freePort()),
      H02_PORT: String(freePort()),
      OSMAND_PORT: String(freePort()),
      JT1078_PORT: String(freePort()),
      JT_ATTACHMENT_PORT: String(freePort()),
      ...backendEnv,
      ...env,
    },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let log = "";
  const collect = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) log += decoder.decode(chunk, { stream: true });
  };
  const pumps = [collect(child.stdout), collect(child.stderr)];
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  const exit = { status: null as Deno.CommandStatus | null };
  child.status.then((status) => (exit.status = status));
  for (;;) {
    if (exit.status) {
      await Promise.allSettled(pumps);
      throw new Error(`server exited (code ${exit.status.code}) before answering:\n${log}`);
    }
    try {
      const res = await fetch(`${url}/health`);
      await res.body?.cancel();
      if (res.ok) break;
    } catch { /* not up yet */ }
    if (Date.now() > deadline) {
      try {
        child.kill("SIGKILL");
      } catch { /* it exited on its own: its output says why */ }
      throw new Error(`server did not start:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    port,
    dataDir,
    databaseUrl: backendEnv.DATABASE_URL ?? env.DATABASE_URL,
    output: () => log,
    kill() {
      try {
        child.kill("SIGKILL");
      } catch { /* gone */ }
    },
    async stop() {
      try {
        child.kill("SIGTERM");
      } catch { /* gone */ }
      await child.status;
      await Promise.allSettled(pumps);
    },
  };
}
