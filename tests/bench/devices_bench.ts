/**
 * bench:devices — an account subtree holding 10,000 devices, against a real server process
 * over loopback HTTP (the full API stack: auth, zod, envelope):
 *   - filtered, paged list queries (queryEquipmentList): p95 target ≤ 50 ms
 *   - importing 1,000 IMEIs in one call: target ≤ 2 s
 *   - transferring 1,000 devices in one call: target ≤ 3 s
 *   - renewing 1,000 devices in one call, paid with recharge cards (no target in the spec)
 */
import { startServer } from "../helpers/server.ts";
import { asAdmin, login, post } from "../e2e/devices_fixture.ts";

const ADMIN_PASSWORD = "Admin12345";
const PASSWORD = "Passw0rd11";
const ACCOUNTS = 10, PER_ACCOUNT = 1000, QUERIES = 300;

const server = await startServer({ ADMIN_PASSWORD });
const base = server.url;

const call = (path: string, body: unknown, token?: string) => post(base, path, body, token);
const timed = async <T>(f: () => Promise<T>): Promise<[T, number]> => {
  const t0 = performance.now();
  const r = await f();
  return [r, performance.now() - t0];
};
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};

try {
  const { adminId, add: addAccount, token: adminToken } = await asAdmin(
    base,
    ADMIN_PASSWORD,
    PASSWORD,
  );
  const add = (account: string, parentId: string, type: number) =>
    addAccount(account, `${account} nick`, parentId, type);
  const dist = await add("bench_dist", adminId, 8);
  const subs: string[] = [];
  for (let i = 0; i < ACCOUNTS; i++) subs.push(await add(`bench_sub${i}`, dist, 9));
  const target = await add("bench_target", dist, 12);
  const token = await login(base, "bench_dist", PASSWORD);

  // 10 imports of 1,000 IMEIs: the import figure and the 10,000-device subtree.
  const importMs: number[] = [];
  for (let a = 0; a < ACCOUNTS; a++) {
    const imeis = Array.from(
      { length: PER_ACCOUNT },
      (_, i) => String(868000000000000 + a * 100_000 + i),
    );
    const [r, ms] = await timed(() =>
      call("/v3/new/newEquipment/importEquipment", {
        userId: subs[a],
        mcType: a % 2 ? "GT06N" : "JT808",
        imeis,
        activationMode: a % 3 ? "auto" : "permission",
      }, token)
    );
    if (r.succeeded !== PER_ACCOUNT) throw new Error(`import ${a}: ${r.succeeded}`);
    importMs.push(ms);
  }
  // Some variety for the filters: a group, disabled and followed devices.
  const group = await call(
    "/v3/new/newEquipment/addGroup",
    { userId: subs[1], name: "Bench" },
    token,
  );
  const some = Array.from({ length: 300 }, (_, i) => String(868000000100000 + i));
  await call("/v3/new/newEquipment/setGroup", { imeis: some, groupId: group.id }, token);
  await call(
    "/v3/new/newEquipment/enableEquipment",
    { imeis: some.slice(0, 100), enabled: false },
    token,
  );
  await call("/v3/new/newEquipment/follow", { imeis: some.slice(100, 200), follow: true }, token);

  const filters: Record<string, unknown>[] = [
    {},
    { status: 4 },
    { mcType: "GT06N" },
    { keyword: "8680000003" },
    { activation: "awaitingPermission" },
    { activation: "notActivatedAuto", enabled: true },
    { userId: subs[1], groupId: group.id },
    { followed: true },
    { enabled: false, bound: false },
    { expiryWithin: 30 },
  ];
  const listMs: number[] = [];
  for (let i = 0; i < QUERIES; i++) {
    const f = filters[i % filters.length];
    const [, ms] = await timed(() =>
      call("/v3/new/newEquipment/queryEquipmentList", {
        pageNum: 1 + (i % 5),
        pageSize: [10, 20, 50, 100][i % 4],
        ...f,
      }, token)
    );
    listMs.push(ms);
  }
  const total =
    (await call("/v3/new/newEquipment/queryEquipmentList", { pageNum: 1, pageSize: 10 }, token))
      .total;

  const moving = Array.from({ length: 1000 }, (_, i) => String(868000000200000 + i));
  const [moved, transferMs] = await timed(() =>
    call("/v3/new/newEquipment/transferEquipment", { imeis: moving, targetUserId: target }, token)
  );

  await call("/v3/new/wallet/allocate", { targetUserId: dist, cards: { "1y": 1000 } }, adminToken);
  const [renewed, renewMs] = await timed(() =>
    call("/v3/new/newEquipment/renewEquipment", { imeis: moving, term: 12, payWith: "card" }, token)
  );

  const f = (n: number) => n.toFixed(1);
  console.log(`devices in the subtree: ${total}`);
  console.log(
    `list (${QUERIES} filtered, paged queries): p50 ${f(pct(listMs, 50))} ms, p95 ${
      f(pct(listMs, 95))
    } ms, max ${f(Math.max(...listMs))} ms (target p95 ≤ 50 ms)`,
  );
  console.log(
    `import 1,000 IMEIs: median ${f(pct(importMs, 50))} ms, max ${
      f(Math.max(...importMs))
    } ms over ${ACCOUNTS} imports (target ≤ 2000 ms)`,
  );
  console.log(
    `transfer 1,000 devices: ${f(transferMs)} ms, moved ${moved.moved} (target ≤ 3000 ms)`,
  );
  console.log(`renew 1,000 devices (recharge cards): ${f(renewMs)} ms, renewed ${renewed.renewed}`);
} finally {
  await server.stop();
}
