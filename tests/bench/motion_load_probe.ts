/**
 * `deno run -A tests/bench/motion_load_probe.ts [devices] [seconds] [motion on|off]` — a real
 * server under a simulated GT06 fleet at 1 Hz (no browser): every 10 s, the frames the gateway
 * received per second and the motion analysis counters from GET /metrics. Tells whether the
 * analysis keeps up with a fleet and where its time goes (flushes, checkpoints, recomputes).
 */
import { startServer } from "../helpers/server.ts";
import { MODEL_FOR, PlatformApi } from "../../modules/simulator/api.ts";
import { Simulator } from "../../modules/simulator/simulator.ts";
import { gatewayPorts } from "../e2e/monitor_fixture.ts";

const devices = Number(Deno.args[0] ?? 10_000);
const seconds = Number(Deno.args[1] ?? 180);
const motion = Deno.args[2] ?? "on";
const ADMIN_PASSWORD = "Admin12345";

const server = await startServer({ ADMIN_PASSWORD, MOTION_ANALYSIS: motion });
let sim: Simulator | null = null;

/** The metric lines of interest, summed by series. */
async function scrape(): Promise<Map<string, number>> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const out = new Map<string, number>();
  for (const line of text.split("\n")) {
    const m = /^(tp_gateway_frames_received_total|tp_motion_analysis)(\{[^}]*\})? (\S+)$/.exec(
      line,
    );
    if (!m) continue;
    const key = m[1] === "tp_motion_analysis" ? /counter="(\w+)"/.exec(m[2] ?? "")![1] : "frames";
    out.set(key, (out.get(key) ?? 0) + Number(m[3]));
  }
  return out;
}

try {
  for (let i = 0; i < 100 && !/Device gateway:/.test(server.output()); i++) {
    await new Promise((r) => setTimeout(r, 100));
  }
  const ports = gatewayPorts(server.output());
  sim = new Simulator({
    protocol: "gt06",
    devices,
    port: ports.gt06,
    intervalSeconds: 1,
    imeiPrefix: "86300000",
    alarmScale: 0,
    reconnectsPerHour: 0,
  });
  const api = await PlatformApi.login(server.url, "admin", ADMIN_PASSWORD);
  await api.importDevices(await api.currentUserId(), MODEL_FOR.gt06, sim.imeis);
  sim.start();
  let prev = await scrape();
  let prevAt = performance.now();
  for (let t = 10; t <= seconds; t += 10) {
    await new Promise((r) => setTimeout(r, 10_000));
    const cur = await scrape();
    const now = performance.now();
    const dt = (now - prevAt) / 1000;
    const d = (k: string) => (cur.get(k) ?? 0) - (prev.get(k) ?? 0);
    console.log(
      `t=${t}s frames/s ${(d("frames") / dt).toFixed(0)} | motion points ${d("points")} late ${
        d("late")
      } flushes ${d("flushes")} segments ${d("segments")} checkpoints ${d("checkpoints")} flush ${
        d("flushSeconds").toFixed(2)
      } s recomputed days ${d("recomputedDays")} rebuilds ${d("rebuilds")}`,
    );
    prev = cur;
    prevAt = now;
  }
} finally {
  await sim?.stop();
  await server.stop();
}
