/**
 * Files in cluster mode (issue 23): two instances of the product on one PostgreSQL and NATS
 * (tests/helpers/cluster.ts). An image uploaded through instance A is served by instance B
 * byte for byte: the bytes live in the database's `blobs` schema, not in A's DATA_DIR. An Open
 * API key created through A signs calls B accepts: both seal with the one server key (a blob).
 */
import assert from "node:assert/strict";
import pg from "pg";
import { png } from "../../modules/domains/test_images.ts";
import { ApiClient } from "../helpers/api_client.ts";
import { startCluster } from "../helpers/cluster.ts";
import { OpenClient } from "../helpers/open_client.ts";
import { loginToken } from "./live_stream.ts";

const ADMIN_PASSWORD = "Admin12345";

Deno.test({
  name: "cluster: files and the Open API server key are shared by the instances",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const cluster = await startCluster({ instances: 2, env: { ADMIN_PASSWORD } });
    try {
      const [a, b] = cluster.instances;
      const token = await loginToken(a.url, "admin", ADMIN_PASSWORD);
      const bytes = await png(40, 30, [200, 10, 10]);
      const form = new FormData();
      form.set("field", "domainLogin");
      form.set("file", new File([bytes], "logo.png", { type: "image/png" }));
      const res = await fetch(`${a.url}/v3/new/domain/uploadImage`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}` },
        body: form,
      });
      const json = await res.json();
      assert.equal(json.code, 10000, JSON.stringify(json));
      const path = new URL(json.data.url).pathname;

      const served = await fetch(`${b.url}${path}`);
      assert.equal(served.status, 200);
      assert.equal(served.headers.get("content-type"), "image/png");
      assert.deepEqual(new Uint8Array(await served.arrayBuffer()), bytes);

      // The bytes are in the database, not on instance A's disk.
      await assert.rejects(Deno.stat(`${a.server.dataDir}/domains/images/${json.data.path}`));
      const client = new pg.Client({ connectionString: cluster.databaseUrl });
      await client.connect();
      try {
        const { rows } = await client.query(
          "SELECT size FROM blobs.objects WHERE key = $1",
          [`domains/images/${json.data.path}`],
        );
        assert.deepEqual(rows.map((r: { size: string }) => Number(r.size)), [bytes.length]);
      } finally {
        await client.end();
      }

      // An app key made through A: its secret, sealed by A, is opened by B to check a signature.
      const admin = await ApiClient.login(a.url, "admin", ADMIN_PASSWORD);
      const key = await admin.call("/v3/new/openapi/key/create", { name: "erp", scope: ["read"] });
      const viaB = await new OpenClient(b.url, key.appKey, key.appSecret).token(
        "admin",
        ADMIN_PASSWORD,
      );
      assert.equal(viaB.code, 0, JSON.stringify(viaB));
      const forged = await new OpenClient(b.url, key.appKey, "0".repeat(32)).token(
        "admin",
        ADMIN_PASSWORD,
      );
      assert.notEqual(forged.code, 0);
    } finally {
      await cluster.stop();
    }
  },
});
