/**
 * `deno run -A tests/bench/motion_cost_bench.ts [devices] [rounds] [pairs]` — the motion
 * analysis' share of the ingest cost, in process: the same commits (each device sends the next
 * fix of a generated vehicle day every round, 06:00 on: tests/bench/vehicle_days.ts; all devices
 * submitted at once as the gateway does, group-committed by the real Ingestor, then the position
 * pipeline) with MOTION_ANALYSIS=off and on, alternated, each on a fresh KV file. Reports the
 * process CPU time per committed position and the wall-clock rate. Sockets and protocol decoding
 * are left out, so the share it shows is larger than in `bench:ingest` (the whole server; on a
 * busy machine its run-to-run noise hides a few per cent).
 */
import process from "node:process";
import { loadConfig } from "../../lib/config.ts";
import { compose } from "../../app/compose.ts";
import { ensureAdministrator } from "../../modules/accounts/bootstrap.ts";
import type { Position } from "../../modules/gateway/protocols/types.ts";
import type { StoredPosition } from "../../modules/devices/model.ts";
import { DeviceDays } from "./vehicle_days.ts";

const DEVICES = Number(Deno.args[0] ?? 1000);
/** 720 rounds at 30 s: 06:00 to 12:00, when the generated vehicles start driving. */
const ROUNDS = Number(Deno.args[1] ?? 720);
const PAIRS = Number(Deno.args[2] ?? 3);
const PASSWORD = "Admin12345";

async function run(motion: "on" | "off") {
  const dir = await Deno.makeTempDir({ prefix: "tp-bench-motion-cost-" });
  const kv = await Deno.openKv(`${dir}/tracking.kv`);
  const s = await compose(
    kv,
    loadConfig({ DATA_DIR: dir, ADMIN_PASSWORD: PASSWORD, MOTION_ANALYSIS: motion }),
  );
  await ensureAdministrator(s.accountStore, PASSWORD);
  const adminId = (await s.accountStore.findIdByLogin("admin"))!;
  const now = new Date().toISOString();
  const imeis = Array.from({ length: DEVICES }, (_, i) => `86300${String(i).padStart(10, "0")}`);
  await s.deviceStore.insertMany(imeis.map((imei) => ({
    imei,
    mcType: "GT06N",
    userId: adminId,
    deviceName: imei,
    sim: "",
    enabled: true,
    createdAt: now,
    activationTime: now,
    expiration: null,
    userExpiration: null,
    timezoneOffsetMinutes: null,
  })));
  await s.directory.load();
  const devices = imeis.map((imei) => s.directory.get(imei)!);
  const yesterday = Math.floor(Date.now() / 86_400_000 - 1) * 86_400_000;
  const tracks = imeis.map((_, i) =>
    new DeviceDays(i).day(yesterday).slice(720, 720 + ROUNDS).map(toPosition)
  );
  const cpu0 = process.cpuUsage();
  const wall0 = performance.now();
  for (let r = 0; r < ROUNDS; r++) {
    await Promise.all(
      devices.map((device, i) =>
        s.ingestor.submit(device, [{ type: "position", position: tracks[i][r] }])
      ),
    );
  }
  const fed = process.cpuUsage(cpu0);
  await s.motion.idle();
  const wall = performance.now() - wall0;
  const cpu = process.cpuUsage(cpu0);
  const flushMs = (cpu.user + cpu.system - fed.user - fed.system) / 1000;
  console.log(`  (${motion}: the final flush took ${flushMs.toFixed(0)} ms of CPU)`);
  await s.ingestor.close();
  await s.motion.close();
  kv.close();
  await Deno.remove(dir, { recursive: true });
  const positions = DEVICES * ROUNDS;
  return {
    cpuUsPerPosition: (cpu.user + cpu.system) / positions,
    rate: positions / (wall / 1000),
  };
}

function toPosition(p: StoredPosition): Position {
  return {
    time: new Date(p.time),
    valid: true,
    latitude: p.lat,
    longitude: p.lng,
    altitude: p.altitude,
    speed: p.speed / 1.852,
    course: p.course,
    posType: 1,
    acc: p.acc ?? undefined,
    mileage: p.mileage ?? undefined,
    attributes: {},
  };
}

const results: Record<string, { cpu: number[]; rate: number[] }> = {
  off: { cpu: [], rate: [] },
  on: { cpu: [], rate: [] },
};
await run("off"); // warm-up: compile everything once
for (let i = 0; i < PAIRS; i++) {
  for (const m of ["off", "on"] as const) {
    const r = await run(m);
    results[m].cpu.push(r.cpuUsPerPosition);
    results[m].rate.push(r.rate);
    console.log(
      `motion ${m}: ${r.cpuUsPerPosition.toFixed(1)} µs CPU per position, ${
        r.rate.toFixed(0)
      } positions/s`,
    );
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const off = median(results.off.cpu), on = median(results.on.cpu);
console.log(
  `${DEVICES} devices × ${ROUNDS} rounds, ${PAIRS} pairs: median CPU per position off ${
    off.toFixed(1)
  } µs, on ${on.toFixed(1)} µs (+${((on / off - 1) * 100).toFixed(1)} %); median rate off ${
    median(results.off.rate).toFixed(0)
  }/s, on ${median(results.on.rate).toFixed(0)}/s`,
);
