/**
 * bench:commands — one batch command to 1,000 online simulated GT06 trackers on real TCP
 * connections to a real server process: the batch call encodes and writes a 0x80 frame per
 * device, every device answers with 0x21, and the time runs until every one of the 1,000
 * command records is stored as "succeeded". Target: ≤ 5 s.
 * PROTOCOL=jt808 runs it on JT/T 808 terminals instead: "locate now" is 0x8201, each answer a
 * 0x0201 whose position is stored before its command is settled.
 */
import { startServer } from "../helpers/server.ts";
import { PlatformApi } from "../../modules/simulator/api.ts";
import { Simulator } from "../../modules/simulator/simulator.ts";

const N = Number(Deno.env.get("DEVICES") ?? 1000);
const PASSWORD = "Admin12345";
const TARGET_MS = 5000;
const PROTOCOL = Deno.env.get("PROTOCOL") === "jt808" ? "jt808" : "gt06";
const MODEL = { gt06: "JM-VL01", jt808: "JT808" }[PROTOCOL];
const PORT_LABEL = { gt06: "GT06", jt808: "JT/T 808" }[PROTOCOL];

const server = await startServer({ ADMIN_PASSWORD: PASSWORD });
let fleet: Simulator | null = null;
try {
  let port = 0;
  for (let i = 0; i < 200 && !port; i++) {
    const ports = server.output().match(/Device gateway: .*/)?.[0] ?? "";
    port = Number(ports.match(new RegExp(`${PORT_LABEL} (\\d+)`))?.[1] ?? 0);
    if (!port) await new Promise((r) => setTimeout(r, 50));
  }
  const api = await PlatformApi.login(server.url, "admin", PASSWORD);
  const userId = await api.currentUserId();
  fleet = new Simulator({
    protocol: PROTOCOL,
    devices: N,
    port,
    imeiPrefix: "86400000",
    intervalSeconds: 60,
    alarmScale: 0,
    reconnectsPerHour: 0,
  });
  await api.importDevices(userId, MODEL, fleet.imeis);
  fleet.start();
  // Every device has logged in and reported once (hbTime set) before the clock starts.
  for (let i = 0;; i++) {
    const { total } = await api.listDevices({ pageSize: 10, status: 4 });
    const all = await api.listDevices({ pageSize: 10 });
    if (all.total - total >= N && total === 0) break;
    if (i > 600) throw new Error(`only ${all.total - total} of ${N} devices online`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const t0 = performance.now();
  const sent = await api.call<{ batchNo: string; deviceCount: number }>(
    "/v3/new/command/batchSend",
    { imeis: fleet.imeis, code: "locate", params: {}, sendType: "online" },
  );
  const tSent = performance.now() - t0;
  let counts: Record<string, number> = {};
  let polls = 0;
  for (;;) {
    const d = await api.call<{ counts: Record<string, number> }>("/v3/new/command/batchDetail", {
      batchNo: sent.batchNo,
    });
    counts = d.counts;
    polls++;
    if ((counts.succeeded ?? 0) + (counts.failed ?? 0) + (counts.timeout ?? 0) >= N) break;
    if (performance.now() - t0 > 60_000) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const tAll = performance.now() - t0;
  console.log(`devices:                     ${N} (${PORT_LABEL}, ${MODEL}, real TCP, one process)`);
  console.log(`batch call (encode+write):   ${tSent.toFixed(0)} ms`);
  console.log(`all replies recorded:        ${tAll.toFixed(0)} ms (${polls} status polls)`);
  console.log(`result:                      ${JSON.stringify(counts)}`);
  console.log(
    `target ≤ ${TARGET_MS} ms:            ${
      tAll <= TARGET_MS && counts.succeeded === N ? "met" : "MISSED"
    }`,
  );
} finally {
  await fleet?.stop();
  await server.stop();
}
