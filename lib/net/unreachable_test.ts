/** Which PostgreSQL client errors count as "cannot reach the database" (real server, real errors). */
import assert from "node:assert/strict";
import pg from "pg";
import { testPostgres } from "../../tests/helpers/postgres.ts";
import { freePort } from "../../tests/helpers/server.ts";
import { isConnectionFailure, UnreachableError, withoutPassword } from "./unreachable.ts";

async function errorOf(url: string, sql = "SELECT 1"): Promise<unknown> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    await client.query(sql);
    return undefined;
  } catch (e) {
    return e;
  } finally {
    await client.end().catch(() => {});
  }
}

Deno.test("isConnectionFailure: refused, missing database yes; a bad query no", async () => {
  const server = await testPostgres();
  try {
    assert.equal(
      isConnectionFailure(await errorOf(`postgres://tp@127.0.0.1:${freePort()}/tp`)),
      true,
    );
    const missing = server.adminUrl.replace(/\/[^/]*$/, "/no_such_database");
    assert.equal(isConnectionFailure(await errorOf(missing)), true);
    const bad = await errorOf(server.adminUrl, "SELEC 1");
    assert.ok(bad instanceof Error);
    assert.equal(isConnectionFailure(bad), false);
  } finally {
    await server.stop();
  }
});

Deno.test("UnreachableError: one line naming the service and address, no password", () => {
  const e = new UnreachableError(
    "PostgreSQL",
    withoutPassword("postgres://tp:s3cret@db:5432/tracking"),
    Object.assign(new Error("connect ECONNREFUSED 10.0.0.1:5432"), { code: "ECONNREFUSED" }),
  );
  assert.equal(
    e.message,
    "cannot reach PostgreSQL at postgres://tp@db:5432/tracking: connect ECONNREFUSED 10.0.0.1:5432",
  );
});

Deno.test("withoutPassword: every address of a list", () => {
  assert.equal(
    withoutPassword("nats://a:p1@n1:4222,nats://b:p2@n2:4222,nats://n3:4222"),
    "nats://a@n1:4222,nats://b@n2:4222,nats://n3:4222",
  );
});
