/** openCluster on both modes: single (in-process) and cluster (a real PostgreSQL and nats-server). */
import assert from "node:assert/strict";
import { testPostgres } from "../../tests/helpers/postgres.ts";
import { testNats } from "../../tests/helpers/nats.ts";
import { freePort } from "../../tests/helpers/server.ts";
import { UnreachableError } from "../net/unreachable.ts";
import { LocalLink } from "./local.ts";
import { closeCluster, openCluster } from "./open.ts";

const enc = new TextEncoder();

Deno.test("openCluster: no DATABASE_URL is single mode (in-process link, always leader)", async () => {
  const cluster = await openCluster({}, "solo");
  assert.equal(cluster.mode, "single");
  assert.equal(cluster.instanceId, "solo");
  assert.ok(cluster.link instanceof LocalLink);
  assert.equal(cluster.leader.isLeader(), true);
  await closeCluster(cluster);
});

Deno.test("openCluster: DATABASE_URL and NATS_URL give two instances one link and one leader", async () => {
  const pg = await testPostgres();
  const nats = await testNats();
  const config = { DATABASE_URL: await pg.createDatabase("open"), NATS_URL: nats.url };
  const a = await openCluster(config, "a");
  const b = await openCluster(config, "b");
  try {
    assert.equal(a.mode, "cluster");
    assert.deepEqual([a.leader.isLeader(), b.leader.isLeader()], [true, false]);
    assert.equal(a.link.state(), "up");
    b.link.reply(`tp.cmd.${b.instanceId}`, (data) => Promise.resolve(data.reverse()));
    await new Promise((r) => setTimeout(r, 100));
    const answer = await a.link.request(`tp.cmd.${b.instanceId}`, enc.encode("ab"), 2_000);
    assert.equal(new TextDecoder().decode(answer), "ba");
    await closeCluster(a);
    const started = Date.now();
    while (!b.leader.isLeader()) {
      assert.ok(Date.now() - started < 5_000, "b takes over within 5 s");
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    await closeCluster(a);
    await closeCluster(b);
    await nats.stop();
    await pg.stop();
  }
});

Deno.test("openCluster: an unreachable NATS stops start-up with an UnreachableError", async () => {
  const config = {
    DATABASE_URL: `postgres://tp@127.0.0.1:${freePort()}/tp`,
    NATS_URL: `nats://127.0.0.1:${freePort()}`,
  };
  await assert.rejects(
    openCluster(config),
    (e) => e instanceof UnreachableError && /NATS/.test(e.message),
  );
});

Deno.test("openCluster: an unreachable PostgreSQL stops start-up with an UnreachableError", async () => {
  const nats = await testNats();
  try {
    const config = { DATABASE_URL: `postgres://tp@127.0.0.1:${freePort()}/tp`, NATS_URL: nats.url };
    await assert.rejects(
      openCluster(config),
      (e) => e instanceof UnreachableError && /PostgreSQL/.test(e.message),
    );
  } finally {
    await nats.stop();
  }
});
