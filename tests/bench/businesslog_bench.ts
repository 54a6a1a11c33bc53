/**
 * The business log store alone: N entries (default 20,000) spread over 180 days, each visible
 * to 3 accounts; a first page with its total (day counters), a keyword search (a scan), and
 * removing the older half. Run: npx -y deno@2 run -A tests/bench/businesslog_bench.ts [N]
 */
import { BusinessLogStore } from "../../modules/businesslog/store.ts";
const dir = await Deno.makeTempDir();
const kv = await Deno.openKv(`${dir}/b.kv`);
const store = new BusinessLogStore(kv);
const N = Number(Deno.args[0] ?? 20000);
const t0 = performance.now();
const STEP = 777_000; // 180 days of entries
const base = Date.now() - N * STEP;
for (let i = 0; i < N; i++) {
  const time = new Date(base + i * STEP).toISOString();
  await store.add({
    id: `${time}-${i.toString(16).padStart(8, "0")}`,
    time,
    actorId: "5",
    account: i % 2 ? "distA" : "entA",
    route: "/v3/new/newEquipment/transferEquipment",
    area: "Devices",
    target: `3597100494${String(i).padStart(5, "0")} → userA`,
    detail: `{"imeis":["3597100494${String(i).padStart(5, "0")}"],"targetUserId":"9"}`,
    ip: "10.0.0.1",
  }, ["5", "2", "1"]);
}
const writeMs = performance.now() - t0;
async function scan(viewer: string, keyword: string, pageSize = 20) {
  const s = performance.now();
  let total = 0;
  const list = [];
  for await (const e of store.newestFirst(viewer, "", "9999\uffff")) {
    if (keyword && !(e.account + e.target + e.detail).toLowerCase().includes(keyword)) continue;
    if (list.length < pageSize) list.push(e);
    total++;
  }
  return { ms: +(performance.now() - s).toFixed(1), total };
}
async function counted(viewer: string, from: string) {
  const s = performance.now();
  const list = [];
  for await (const e of store.newestFirst(viewer, from, "9999\uffff")) {
    list.push(e);
    if (list.length === 20) break;
  }
  const total = await store.countBetween(viewer, from, "9999\uffff");
  return { ms: +(performance.now() - s).toFixed(1), total };
}
console.log(
  JSON.stringify({
    N,
    audience: 3,
    writeMsPerEntry: +(writeMs / N).toFixed(3),
    fullScanPage1: await scan("1", ""),
    countedPage1: await counted("1", ""),
    countedFromMidRange: await counted("1", new Date(base + N * STEP / 2 + 1234).toISOString()),
    keyword: await scan("1", "0494123"),
    empty: await scan("77", ""),
  }),
);
const p = performance.now();
const removed = await store.removeBefore(new Date(base + N * STEP / 2).toISOString());
console.log(JSON.stringify({ pruneHalf: removed, ms: +(performance.now() - p).toFixed(0) }));
kv.close();
await Deno.remove(dir, { recursive: true });
