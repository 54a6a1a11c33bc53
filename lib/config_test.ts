import assert from "node:assert/strict";
import { ConfigError, loadConfig } from "./config.ts";

Deno.test("config defaults", () => {
  const c = loadConfig({});
  assert.equal(c.PORT, 8000);
  assert.equal(c.DATA_DIR, "./data");
  assert.equal(c.CAPTCHA, "on");
  assert.equal(c.GT06_PORT, 5023);
  assert.equal(c.JT808_PORT, 5015);
  assert.equal(c.H02_PORT, 5013);
  assert.equal(c.OSMAND_PORT, 5055);
  assert.equal(c.ADMIN_PASSWORD, undefined);
});

Deno.test("config: a bad value names the variable", () => {
  assert.throws(
    () => loadConfig({ PORT: "eighty" }),
    (e) => e instanceof ConfigError && /PORT/.test(e.message),
  );
  assert.throws(() => loadConfig({ CAPTCHA: "maybe" }), /CAPTCHA/);
  assert.throws(() => loadConfig({ ADMIN_PASSWORD: "short" }), /ADMIN_PASSWORD/);
  assert.throws(() => loadConfig({ GT06_PORT: "70000" }), /GT06_PORT/);
});

Deno.test("config: device login deadline and connection cap", () => {
  const c = loadConfig({});
  assert.equal(c.DEVICE_LOGIN_SECONDS, 60);
  assert.equal(c.MAX_DEVICE_CONNECTIONS, undefined); // derived from the descriptor limit
  assert.equal(loadConfig({ MAX_DEVICE_CONNECTIONS: "50" }).MAX_DEVICE_CONNECTIONS, 50);
  assert.throws(() => loadConfig({ DEVICE_LOGIN_SECONDS: "0" }), /DEVICE_LOGIN_SECONDS/);
  assert.throws(() => loadConfig({ DEVICE_LOGIN_SECONDS: "1.5" }), /DEVICE_LOGIN_SECONDS/);
  assert.throws(() => loadConfig({ MAX_DEVICE_CONNECTIONS: "0" }), /MAX_DEVICE_CONNECTIONS/);
  assert.throws(() => loadConfig({ MAX_DEVICE_CONNECTIONS: "many" }), /MAX_DEVICE_CONNECTIONS/);
});

Deno.test("config: LOG_LEVEL and METRICS_TOKEN", () => {
  assert.equal(loadConfig({}).LOG_LEVEL, "info");
  assert.equal(loadConfig({ LOG_LEVEL: "debug" }).LOG_LEVEL, "debug");
  assert.throws(() => loadConfig({ LOG_LEVEL: "verbose" }), /LOG_LEVEL/);
  assert.equal(loadConfig({}).METRICS_TOKEN, undefined);
  assert.equal(loadConfig({ METRICS_TOKEN: "x".repeat(16) }).METRICS_TOKEN, "x".repeat(16));
  assert.throws(() => loadConfig({ METRICS_TOKEN: "short" }), /METRICS_TOKEN/);
});

Deno.test("config: cluster mode needs DATABASE_URL and NATS_URL together", () => {
  const single = loadConfig({});
  assert.equal(single.DATABASE_URL, undefined);
  assert.equal(single.NATS_URL, undefined);
  const db = "postgres://tp:secret@db.example:5432/tracking?sslmode=require";
  const nats = "nats://n1:4222, nats://n2:4222";
  const both = loadConfig({ DATABASE_URL: db, NATS_URL: nats });
  assert.equal(both.DATABASE_URL, db);
  assert.equal(both.NATS_URL, nats);
  assert.equal(
    loadConfig({ DATABASE_URL: "postgresql://h/db", NATS_URL: "nats://h" }).NATS_URL,
    "nats://h",
  );
  assert.throws(
    () => loadConfig({ DATABASE_URL: db }),
    (e) => e instanceof ConfigError && /NATS_URL is not set/.test(e.message),
  );
  assert.throws(
    () => loadConfig({ NATS_URL: nats }),
    (e) => e instanceof ConfigError && /DATABASE_URL is not set/.test(e.message),
  );
  // Empty counts as unset (single mode).
  assert.equal(loadConfig({ DATABASE_URL: "", NATS_URL: "" }).DATABASE_URL, undefined);
  assert.throws(() => loadConfig({ DATABASE_URL: "mysql://h/db", NATS_URL: nats }), /DATABASE_URL/);
  assert.throws(() => loadConfig({ DATABASE_URL: "not a url", NATS_URL: nats }), /DATABASE_URL/);
  assert.throws(() => loadConfig({ DATABASE_URL: db, NATS_URL: "http://n1:4222" }), /NATS_URL/);
  assert.throws(() => loadConfig({ DATABASE_URL: db, NATS_URL: "nats://a:1,b" }), /NATS_URL/);
  assert.throws(() => loadConfig({ DATABASE_URL: db, NATS_URL: " , " }), /NATS_URL/);
});

Deno.test("config: POSITION_RETENTION_DAYS is a positive whole number, unset keeps everything", () => {
  assert.equal(loadConfig({}).POSITION_RETENTION_DAYS, undefined);
  assert.equal(loadConfig({ POSITION_RETENTION_DAYS: "90" }).POSITION_RETENTION_DAYS, 90);
  assert.throws(() => loadConfig({ POSITION_RETENTION_DAYS: "0" }), /POSITION_RETENTION_DAYS/);
  assert.throws(() => loadConfig({ POSITION_RETENTION_DAYS: "1.5" }), /POSITION_RETENTION_DAYS/);
  assert.throws(
    () => loadConfig({ POSITION_RETENTION_DAYS: "forever" }),
    /POSITION_RETENTION_DAYS/,
  );
});
