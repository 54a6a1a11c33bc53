import { createApp } from "../../app/app.ts";
import { loadConfig } from "../../lib/config.ts";
import { compose } from "../../app/compose.ts";
import { ensureAdministrator } from "../../modules/accounts/bootstrap.ts";
import { openTestKv } from "./test_kv.ts";

export const ADMIN_PASSWORD = "Admin12345";

/**
 * An in-process app on a real KV file in a temp folder, for `app.request()` tests.
 * Captcha is off unless asked for.
 */
export async function testApp(env: Record<string, string> = {}) {
  const dir = await Deno.makeTempDir({ prefix: "tp-test-" });
  const config = loadConfig({ DATA_DIR: dir, CAPTCHA: "off", ADMIN_PASSWORD, ...env });
  // Deno KV; a PgKv with TP_TEST_BACKEND=postgres (the cluster test runs the isolation matrix so).
  const kv = await openTestKv(`${dir}/tracking.kv`);
  const services = await compose(kv, config);
  await ensureAdministrator(services.accountStore, config.ADMIN_PASSWORD);
  const app = createApp(services);
  let ip = 0;

  /** Calls the API; `token` adds a Bearer header. */
  async function call(
    path: string,
    body?: unknown,
    token?: string,
    method = body === undefined ? "GET" : "POST",
  ) {
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (token) headers.authorization = `Bearer ${token}`;
    const res = await app.request(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = res.headers.get("content-type")?.includes("json") ? await res.json() : null;
    return { status: res.status, json, res };
  }

  async function login(account: string, password: string): Promise<string> {
    const r = await call("/v3/new/account/login", { account, password });
    if (r.json?.code !== 10000) {
      throw new Error(`login ${account} failed: ${JSON.stringify(r.json)}`);
    }
    return r.json.data.token;
  }

  return {
    app,
    services,
    call,
    login,
    nextIp: () => `10.0.0.${++ip}`,
    adminToken: () => login("admin", ADMIN_PASSWORD),
    async close() {
      await services.ingestor.close();
      await services.motion.close();
      await services.sensorRecorder.stop();
      await services.alertAddresses.idle();
      kv.close();
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
}

export type TestApp = Awaited<ReturnType<typeof testApp>>;
