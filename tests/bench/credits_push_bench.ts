/**
 * What the free push quota costs alert delivery: `takePush` (one read and one checked commit)
 * per mail or webhook push, within the quota and beyond it (a credit taken in the same commit),
 * sequential and 50 at once for one account, on a real KV file.
 * Run: npx -y deno@2 run -A tests/bench/credits_push_bench.ts
 */
import { WalletStore } from "../../modules/wallet/store.ts";
import { CreditStore } from "../../modules/credits/store.ts";

const N = 2000;
const dir = await Deno.makeTempDir({ prefix: "tp-bench-credits-" });
const kv = await Deno.openKv(`${dir}/b.kv`);
const store = new CreditStore(kv, new WalletStore(kv));
const seed = () => Promise.resolve(1_000_000);

async function timed(label: string, quota: number, concurrent: number) {
  const id = crypto.randomUUID();
  const started = performance.now();
  for (let i = 0; i < N; i += concurrent) {
    await Promise.all(
      Array.from(
        { length: concurrent },
        () => store.takePush(id, "2026-11", quota, 1, "mail", seed),
      ),
    );
  }
  const ms = performance.now() - started;
  const count = await store.pushes(id, "2026-11");
  console.log(
    `${label}: ${(ms / N * 1000).toFixed(0)} µs per push, ${(N / ms * 1000).toFixed(0)}/s ` +
      `(free ${count.free}, paid ${count.paid}, skipped ${count.skipped})`,
  );
}

try {
  await timed("within the quota, one at a time", N, 1);
  await timed("beyond the quota (paid), one at a time", 0, 1);
  await timed("within the quota, 50 at once (one account)", N, 50);
  await timed("beyond the quota (paid), 50 at once (one account)", 0, 50);
} finally {
  kv.close();
  await Deno.remove(dir, { recursive: true });
}
