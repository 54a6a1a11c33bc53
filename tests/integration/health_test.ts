/**
 * /health and start-up on both modes, with real server processes (issue 23): single mode keeps
 * its answer; cluster mode (DATABASE_URL + NATS_URL) answers the database's and NATS's states
 * and 503 while either is down; PostgreSQL or NATS out of reach at start-up is one line and
 * exit code 2.
 */
import assert from "node:assert/strict";
import { startServer } from "../helpers/server.ts";
import { freePort } from "../helpers/server.ts";
import { startPostgres, testPostgres } from "../helpers/postgres.ts";
import { startNats, testNats } from "../helpers/nats.ts";
import { RUN_MAIN_ARGS } from "../../lib/deno_child.ts";

interface Health {
  status: string;
  store: unknown;
  database?: { state: string };
  nats?: { state: string };
  gateway?: { connections: number };
}

async function health(url: string): Promise<{ code: number; body: Health }> {
  const res = await fetch(`${url}/health`);
  return { code: res.status, body: await res.json() };
}

/** Polls /health until `check` holds; returns the answer that satisfied it. */
async function healthUntil(
  url: string,
  what: string,
  check: (h: { code: number; body: Health }) => boolean,
  ms = 15_000,
): Promise<{ code: number; body: Health }> {
  const deadline = Date.now() + ms;
  for (;;) {
    const h = await health(url);
    if (check(h)) return h;
    if (Date.now() > deadline) throw new Error(`${what}: last answer ${JSON.stringify(h)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

Deno.test("health: single mode answers as before (store latency, gateway counters)", async () => {
  const server = await startServer({ DATABASE_URL: "", NATS_URL: "" });
  try {
    const { code, body } = await health(server.url);
    assert.equal(code, 200);
    assert.equal(body.status, "ok");
    assert.deepEqual(Object.keys(body).sort(), ["gateway", "status", "store"]);
    assert.equal((body.store as { state: string }).state, "ok");
    assert.equal(body.gateway?.connections, 0);
  } finally {
    await server.stop();
  }
});

Deno.test("health: cluster mode reports PostgreSQL and NATS; 503 while NATS is down, 200 once back", async () => {
  const pg = await testPostgres();
  const nats = await startNats(); // our own: this test kills it
  let restarted: Awaited<ReturnType<typeof startNats>> | undefined;
  const databaseUrl = await pg.createDatabase("health");
  const server = await startServer({ DATABASE_URL: databaseUrl, NATS_URL: nats.url });
  try {
    const up = await health(server.url);
    assert.equal(up.code, 200);
    assert.deepEqual(
      {
        status: up.body.status,
        store: up.body.store,
        db: up.body.database?.state,
        nats: up.body.nats?.state,
      },
      { status: "ok", store: "postgres", db: "up", nats: "up" },
    );
    await nats.stop();
    const down = await healthUntil(server.url, "503 with NATS down", (h) => h.code === 503);
    assert.equal(down.body.status, "error");
    assert.equal(down.body.nats?.state, "down");
    assert.equal(down.body.database?.state, "up");
    restarted = await startNats({ port: Number(new URL(nats.url).port) });
    const back = await healthUntil(server.url, "200 with NATS back", (h) => h.code === 200);
    assert.equal(back.body.nats?.state, "up");
  } finally {
    await server.stop();
    await restarted?.stop();
    await pg.stop();
  }
});

Deno.test("health: cluster mode answers 503 with the database down (and the process lives on)", async () => {
  const pg = await startPostgres(); // our own: this test stops it
  const nats = await testNats();
  const server = await startServer({
    DATABASE_URL: await pg.createDatabase("health"),
    NATS_URL: nats.url,
  });
  try {
    assert.equal((await health(server.url)).code, 200);
    await pg.stop();
    const down = await healthUntil(server.url, "503 with PostgreSQL down", (h) => h.code === 503);
    assert.equal(down.body.database?.state, "down");
    assert.equal(down.body.nats?.state, "up");
    await new Promise((r) => setTimeout(r, 3_000)); // the pool's and the leader's errors come in
    assert.equal((await health(server.url)).code, 503, "still answering");
  } finally {
    await server.stop();
    await nats.stop();
  }
});

/** Runs main.ts with the environment until it exits by itself. */
async function runMain(env: Record<string, string>) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: RUN_MAIN_ARGS,
    cwd: new URL("../../", import.meta.url).pathname,
    env: {
      PORT: String(freePort()),
      HOSTNAME: "127.0.0.1",
      DATA_DIR: await Deno.makeTempDir({ prefix: "tp-health-" }),
      ...env,
    },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  return { code: out.code, text };
}

Deno.test("start-up: PostgreSQL or NATS out of reach is one line and exit code 2", async () => {
  const nats = await testNats();
  const pg = await testPostgres();
  try {
    const deadPort = freePort();
    const noDb = await runMain({
      DATABASE_URL: `postgres://tp:secret@127.0.0.1:${deadPort}/tp`,
      NATS_URL: nats.url,
    });
    assert.equal(noDb.code, 2, noDb.text);
    assert.match(
      noDb.text,
      new RegExp(`Cannot start: cannot reach PostgreSQL at .*127\\.0\\.0\\.1:${deadPort}`),
    );
    assert.doesNotMatch(noDb.text, /secret|\n\s+at /, "no password, no stack trace");
    assert.equal(noDb.text.trim().split("\n").length, 1, noDb.text);

    const natsPort = freePort();
    const noNats = await runMain({
      DATABASE_URL: await pg.createDatabase("health"),
      NATS_URL: `nats://127.0.0.1:${natsPort}`,
    });
    assert.equal(noNats.code, 2, noNats.text);
    assert.match(
      noNats.text,
      new RegExp(`Cannot start: cannot reach NATS at .*127\\.0\\.0\\.1:${natsPort}`),
    );
    assert.doesNotMatch(noNats.text, /\n\s+at /);

    const half = await runMain({ NATS_URL: nats.url });
    assert.equal(half.code, 2, half.text);
    assert.match(half.text, /DATABASE_URL is not set/);
  } finally {
    await nats.stop();
    await pg.stop();
  }
});
