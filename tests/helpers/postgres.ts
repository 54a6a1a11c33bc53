/**
 * A throwaway PostgreSQL for tests (cluster mode, issue 23): Debian's server binaries run as
 * the `postgres` user (PostgreSQL refuses to run as root) on a free loopback port, in a
 * temporary data directory. The test task starts one for the whole run and hands its admin
 * address on as TP_TEST_DATABASE_URL; a test file run on its own starts its own.
 * Each caller gets a fresh database (`createDatabase`), so tests never share data.
 */
import pg from "pg";
import { freePort } from "./server.ts";

export interface TestPostgres {
  /** postgres://postgres@127.0.0.1:port/postgres (the maintenance database). */
  adminUrl: string;
  /** Creates an empty database and returns its address. */
  createDatabase(prefix?: string): Promise<string>;
  stop(): Promise<void>;
}

const PG_BIN = "/usr/lib/postgresql/15/bin";
let counter = 0;

/** The run's server (TP_TEST_DATABASE_URL) when the test task started one, else a new one. */
export async function testPostgres(): Promise<TestPostgres> {
  const given = Deno.env.get("TP_TEST_DATABASE_URL");
  if (given) return withDatabases(given, async () => {});
  return await startPostgres();
}

/** Starts a new server; `stop()` ends it and removes its files. */
export async function startPostgres(): Promise<TestPostgres> {
  try {
    Deno.statSync(`${PG_BIN}/initdb`);
  } catch {
    throw new Error(
      "PostgreSQL 15 server binaries not found. Install them with: apt-get install -y postgresql",
    );
  }
  const dir = await Deno.makeTempDir({ prefix: "tp-pg-" });
  await Deno.chmod(dir, 0o777);
  const data = `${dir}/data`;
  const port = freePort();
  await asPostgres([`${PG_BIN}/initdb`, "-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8"]);
  await asPostgres([
    `${PG_BIN}/pg_ctl`,
    "-D",
    data,
    "-l",
    `${dir}/log`,
    "-w",
    "-o",
    `-p ${port} -h 127.0.0.1 -k ${dir} -c fsync=off -c synchronous_commit=off ` +
    `-c full_page_writes=off -c max_connections=300`,
    "start",
  ]);
  const adminUrl = `postgres://postgres@127.0.0.1:${port}/postgres`;
  return withDatabases(adminUrl, async () => {
    await asPostgres([`${PG_BIN}/pg_ctl`, "-D", data, "-m", "immediate", "-w", "stop"]);
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  });
}

function withDatabases(adminUrl: string, stop: () => Promise<void>): TestPostgres {
  return {
    adminUrl,
    async createDatabase(prefix = "tp") {
      const name = `${prefix}_${Deno.pid}_${Date.now().toString(36)}_${counter++}`
        .toLowerCase().replace(/[^a-z0-9_]/g, "_");
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${name}`);
      } finally {
        await client.end();
      }
      return adminUrl.replace(/\/[^/]*$/, `/${name}`);
    },
    stop,
  };
}

/** Runs a command as the `postgres` user when we are root (as CI is), else as ourselves. */
async function asPostgres(cmd: string[]): Promise<void> {
  const [bin, ...args] = Deno.uid() === 0 ? ["runuser", "-u", "postgres", "--", ...cmd] : cmd;
  const out = await new Deno.Command(bin, { args, stdout: "piped", stderr: "piped" }).output();
  if (!out.success) {
    throw new Error(`${cmd.join(" ")} failed:\n${new TextDecoder().decode(out.stderr)}`);
  }
}
