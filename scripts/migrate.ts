/**
 * `deno task migrate`: applies the PostgreSQL store's schema migrations (cluster mode) and
 * prints what it did. The server applies them at start-up too; this lets an operator migrate
 * ahead of a rolling deploy. Without DATABASE_URL the embedded Deno KV store needs none.
 */
import { openPostgresStore } from "../lib/kv/pg/store.ts";
import { MIGRATIONS } from "../lib/kv/pg/migrations.ts";

const url = Deno.env.get("DATABASE_URL");
if (!url) {
  console.log("DATABASE_URL is not set: the embedded Deno KV store needs no migrations.");
  Deno.exit(0);
}

try {
  let applied: string[] = [];
  const store = await openPostgresStore(url, { poolSize: 1, onMigrated: (ids) => applied = ids });
  await store.close();
  if (applied.length) {
    console.log(`Applied ${applied.length} migration(s):`);
    for (const id of applied) console.log(`  ${id}`);
  } else {
    console.log(`Schema is up to date (${MIGRATIONS.length} migrations applied earlier).`);
  }
} catch (e) {
  // The address may hold a password: name only the host.
  const host = (() => {
    try {
      return new URL(url).host;
    } catch {
      return "(unparsable DATABASE_URL)";
    }
  })();
  console.error(`Migration failed on ${host}: ${(e as Error).message}`);
  Deno.exit(1);
}
