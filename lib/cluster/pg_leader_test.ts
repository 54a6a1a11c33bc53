/**
 * PgLeadership on a real PostgreSQL (tests/helpers/postgres.ts): each test gets its own
 * database (advisory locks are per database), instances are PgLeadership objects or, for a
 * process that dies, a child process.
 */
import assert from "node:assert/strict";
import pg from "pg";
import { testPostgres } from "../../tests/helpers/postgres.ts";
import { freePort } from "../../tests/helpers/server.ts";
import { UnreachableError } from "../net/unreachable.ts";
import { LEADER_LOCK_KEY, PgLeadership } from "./pg_leader.ts";
import { denoChildArgs } from "../deno_child.ts";

// One server for the file (the run's, TP_TEST_DATABASE_URL, when given); stopped by the last test.
const server = await testPostgres();

const FAST = { intervalMs: 500 };

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

async function waitFor(what: string, check: () => boolean, ms: number): Promise<number> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > ms) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(20);
  }
  return Date.now() - started;
}

/** Runs SQL on the database as another session (the test's view of the server). */
async function sql<T extends pg.QueryResultRow>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
}

/** The backend process holding the leader lock in this database. */
async function lockHolder(url: string): Promise<number | undefined> {
  const key = BigInt(LEADER_LOCK_KEY);
  const rows = await sql<{ pid: number }>(
    url,
    `SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted
       AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
       AND classid = ${Number(key >> 32n)} AND objid = ${Number(key & 0xffffffffn)}`,
  );
  return rows[0]?.pid;
}

Deno.test("PgLeadership: of two instances exactly one leads, and the other takes over on close", async () => {
  const url = await server.createDatabase("leader");
  const a = await PgLeadership.start(url, FAST);
  const b = await PgLeadership.start(url, FAST);
  try {
    assert.equal(a.isLeader(), true, "the first one leads at once");
    assert.equal(b.isLeader(), false);
    await sleep(1_200); // several ticks: still exactly one
    assert.deepEqual([a.isLeader(), b.isLeader()], [true, false]);
    assert.ok(await lockHolder(url), "the lock is held in the database");
    const changes: boolean[] = [];
    b.onChange((leader) => changes.push(leader));
    await a.close();
    assert.equal(a.isLeader(), false);
    const took = await waitFor("b to lead", () => b.isLeader(), 5_000);
    assert.deepEqual(changes, [true]);
    assert.ok(took < 5_000);
  } finally {
    await a.close();
    await b.close();
  }
});

Deno.test("PgLeadership: the leader's connection killed → the other leads within 5 s, the old one does not", async () => {
  const url = await server.createDatabase("leader");
  const a = await PgLeadership.start(url, { intervalMs: 2_000 });
  const b = await PgLeadership.start(url, { intervalMs: 2_000 });
  try {
    assert.equal(a.isLeader(), true);
    const aChanges: boolean[] = [];
    a.onChange((leader) => aChanges.push(leader));
    const pid = await lockHolder(url);
    assert.ok(pid);
    await sql(url, `SELECT pg_terminate_backend(${pid})`);
    await waitFor("a to step down", () => !a.isLeader(), 5_000);
    const took = await waitFor("b to lead", () => b.isLeader(), 5_000);
    assert.ok(took < 5_000, `took over in ${took} ms`);
    // a reconnects and stays a follower: never two leaders.
    for (let i = 0; i < 10; i++) {
      await sleep(300);
      assert.deepEqual([a.isLeader(), b.isLeader()], [false, true]);
    }
    assert.deepEqual(aChanges, [false]);
    const holder = await lockHolder(url);
    assert.ok(holder && holder !== pid);
  } finally {
    await a.close();
    await b.close();
  }
});

Deno.test("PgLeadership: the holder's process killed → another instance leads within 5 s", async () => {
  const url = await server.createDatabase("leader");
  const root = new URL("../../", import.meta.url).pathname;
  const script = `
    import { PgLeadership } from "${new URL("./pg_leader.ts", import.meta.url).href}";
    const l = await PgLeadership.start(${JSON.stringify(url)});
    console.log(l.isLeader() ? "leader" : "follower");
    setInterval(() => {}, 1000);`;
  const child = new Deno.Command(Deno.execPath(), {
    args: denoChildArgs("eval", "--no-check", script),
    cwd: root,
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let out = "";
  while (!/^(leader|follower)$/m.test(out)) {
    const chunk = await reader.read();
    if (chunk.done) throw new Error(`the child ended: ${out}`);
    out += chunk.value;
  }
  assert.match(out, /^leader$/m);
  const b = await PgLeadership.start(url, { intervalMs: 2_000 });
  try {
    await sleep(500);
    assert.equal(b.isLeader(), false, "the child process leads");
    child.kill("SIGKILL");
    await child.status;
    const took = await waitFor("b to lead", () => b.isLeader(), 5_000);
    assert.ok(took < 5_000, `took over in ${took} ms`);
  } finally {
    reader.releaseLock();
    await child.stdout.cancel().catch(() => {});
    await b.close();
  }
});

Deno.test("PgLeadership: an unreachable database at start-up is an UnreachableError", async () => {
  const port = freePort();
  await assert.rejects(
    PgLeadership.start(`postgres://tp:secret@127.0.0.1:${port}/tp`),
    (e) =>
      e instanceof UnreachableError && e.message.includes(`127.0.0.1:${port}`) &&
      !e.message.includes("secret"),
  );
});

Deno.test("PgLeadership: (stops this file's PostgreSQL)", async () => {
  await server.stop();
});
