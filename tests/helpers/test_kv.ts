/**
 * The store a test runs on (issue 23). By default Deno KV, as always (a file, or `:memory:`).
 * With TP_TEST_BACKEND=postgres (the test task's second pass) a PgKv (lib/kv/pg) on a fresh
 * database of the run's PostgreSQL (TP_TEST_DATABASE_URL), so the stores' tests and the
 * integration tests run unchanged on both backends.
 *
 * A path stands for one database for the life of the test process, like a file: opening the
 * same path again (a restart) finds the same data, and a server started on that data folder
 * (tests/helpers/server.ts) uses that database too. Without a path (or `:memory:`) the
 * database is fresh and dropped when the store is closed.
 */
import { dirname } from "node:path";
import type { StoreBackend } from "../../lib/kv/backend.ts";
import type { TestPostgres } from "./postgres.ts";
import type { TestNats } from "./nats.ts";

/** True in the test task's PostgreSQL pass. */
export function onPostgres(): boolean {
  return Deno.env.get("TP_TEST_BACKEND") === "postgres";
}

/** Deno KV normally; a PgKv on a fresh (or, for a path, the path's) database on PostgreSQL. */
export async function openTestKv(path = ":memory:"): Promise<Deno.Kv> {
  if (!onPostgres()) return await Deno.openKv(path);
  const scratch = path === ":memory:";
  const url = scratch ? await newDatabase("kv") : await databaseForDataDir(dirname(path));
  const backend = await openPostgres(url);
  const kv = backend.kv;
  // Deno.Kv.close() is synchronous: the pool ends (and a scratch database is dropped) after.
  kv.close = () => {
    void backend.close().catch(() => {}).then(() => scratch ? dropDatabase(url) : undefined);
  };
  return kv;
}

/** Data folder → its database, for the life of the process (files stay under the folder). */
const dataDirDatabases = new Map<string, Promise<string>>();

/**
 * The database standing for a data folder on PostgreSQL: created on first use, the same one
 * afterwards (a test seeding a store before starting a server on it, a server restarted).
 */
export function databaseForDataDir(dataDir: string): Promise<string> {
  let url = dataDirDatabases.get(dataDir);
  if (!url) {
    url = newDatabase("srv");
    dataDirDatabases.set(dataDir, url);
  }
  return url;
}

/**
 * What a server started by tests/helpers/server.ts needs for cluster mode on PostgreSQL: its
 * data folder's database and the run's NATS. Empty by default, and when the caller chose
 * (passed DATABASE_URL or NATS_URL, even empty for single mode).
 */
export async function serverBackendEnv(
  dataDir: string,
  env: Record<string, string>,
): Promise<Record<string, string>> {
  if (!onPostgres() || "DATABASE_URL" in env || "NATS_URL" in env) return {};
  const [databaseUrl, nats] = await Promise.all([databaseForDataDir(dataDir), runNats()]);
  return { DATABASE_URL: databaseUrl, NATS_URL: nats.url };
}

// The run's PostgreSQL and NATS (the test task starts them: TP_TEST_DATABASE_URL, TP_TEST_NATS_URL).
let postgres: Promise<TestPostgres> | null = null;
let nats: Promise<TestNats> | null = null;

function runPostgres(): Promise<TestPostgres> {
  requireRunServer("TP_TEST_DATABASE_URL");
  postgres ??= import("./postgres.ts").then((m) => m.testPostgres());
  return postgres;
}

function runNats(): Promise<TestNats> {
  requireRunServer("TP_TEST_NATS_URL");
  nats ??= import("./nats.ts").then((m) => m.testNats());
  return nats;
}

/** A file run on its own would leave servers behind: the test task owns their lifetime. */
function requireRunServer(name: string): void {
  if (Deno.env.get(name)) return;
  throw new Error(
    `TP_TEST_BACKEND=postgres needs ${name}: run it through the test task, ` +
      "e.g. `deno task test --backend=postgres <files>`",
  );
}

async function newDatabase(prefix: string): Promise<string> {
  return await (await runPostgres()).createDatabase(prefix);
}

async function openPostgres(url: string): Promise<StoreBackend> {
  const { openPostgresStore } = await import("../../lib/kv/pg/store.ts");
  return await openPostgresStore(url);
}

async function dropDatabase(url: string): Promise<void> {
  const { default: pg } = await import("pg");
  const admin = new pg.Client({ connectionString: (await runPostgres()).adminUrl });
  try {
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${new URL(url).pathname.slice(1)} WITH (FORCE)`);
  } catch {
    /* the run's server is thrown away at the end anyway */
  } finally {
    await admin.end().catch(() => {});
  }
}
