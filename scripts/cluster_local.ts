/**
 * `deno task cluster:local` — cluster mode on one machine, for trying it (issue 23): a
 * throwaway PostgreSQL (run as the `postgres` user), nats-server, 3 instances of the product
 * and HAProxy in front, all on loopback (tests/helpers/cluster.ts). Prints the console URL,
 * the administrator's password and the device ports; Ctrl-C stops everything and removes the
 * temporary data.
 *
 * Options: --instances N (default 3), --port P (console through HAProxy, default 8000; the
 * device ports are the product's defaults when free), --host H (HAProxy's address, default
 * 127.0.0.1; 0.0.0.0 to let devices on the network in).
 */
import { type ClusterPorts, startCluster, type TestCluster } from "../tests/helpers/cluster.ts";

const PACKAGES = ["postgresql", "nats-server", "haproxy"];
const INSTALL = `apt-get install -y ${PACKAGES.join(" ")}`;
const ROOT = new URL("../", import.meta.url).pathname;

/** The product's own default ports, used by the balancer when they are free. */
const DEFAULT_PORTS: ClusterPorts = {
  http: 8000,
  gt06: 5023,
  jt808: 5015,
  h02: 5013,
  osmand: 5055,
  jt1078: 1078,
  attachments: 1079,
};

function option(name: string, fallback: string): string {
  const i = Deno.args.indexOf(`--${name}`);
  return i >= 0 && Deno.args[i + 1] ? Deno.args[i + 1] : fallback;
}

function isFile(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

/** What is missing of Debian's postgresql, nats-server and haproxy. */
function missingPackages(): string[] {
  const have: Record<string, boolean> = {
    postgresql: isFile("/usr/lib/postgresql/15/bin/initdb"),
    "nats-server": isFile("/usr/sbin/nats-server") || isFile("/usr/bin/nats-server"),
    haproxy: isFile("/usr/sbin/haproxy") || isFile("/usr/bin/haproxy"),
  };
  return PACKAGES.filter((p) => !have[p]);
}

/** As root on Debian: apt-get installs them (as scripts/run_tests.ts does for Chromium). */
async function installPackages(pkgs: string[]): Promise<boolean> {
  if (Deno.build.os !== "linux" || Deno.uid() !== 0 || !isFile("/usr/bin/apt-get")) return false;
  console.error(`Installing Debian's ${pkgs.join(", ")} (apt-get install -y ${pkgs.join(" ")})…`);
  const env = { DEBIAN_FRONTEND: "noninteractive" };
  for (const args of [["update", "-qq"], ["install", "-y", "-qq", ...pkgs]]) {
    const status = await new Deno.Command("apt-get", { args, env }).spawn().status;
    if (!status.success) return false;
  }
  return true;
}

/** A default port where it is free; else 0 (the helper picks a free one). */
function freeOr(port: number, host: string): number | undefined {
  try {
    Deno.listen({ hostname: host, port }).close();
    return port;
  } catch {
    return undefined;
  }
}

async function ensureBuild(): Promise<void> {
  if (isFile(`${ROOT}build/manifest.json`)) return;
  console.error("Building the client bundles (build/ is missing)…");
  const r = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "scripts/build.ts"],
    cwd: ROOT,
  }).spawn().status;
  if (!r.success) throw new Error("scripts/build.ts failed");
}

function randomPassword(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(9));
  return "Tp" + Array.from(bytes, (b) => b.toString(36).padStart(2, "0")).join("").slice(0, 12);
}

const missing = missingPackages();
if (missing.length && !(await installPackages(missing) && !missingPackages().length)) {
  console.error(
    `\n*** cluster:local needs ${missing.join(", ")}. Install with:\n\n    ${INSTALL}\n`,
  );
  Deno.exit(1);
}
await ensureBuild();

const host = option("host", "127.0.0.1");
const count = Number(option("instances", "3"));
const requested: Partial<ClusterPorts> = {};
for (const [k, port] of Object.entries(DEFAULT_PORTS)) {
  const want = k === "http" ? Number(option("port", String(port))) : port;
  requested[k as keyof ClusterPorts] = freeOr(want, host);
}
const password = Deno.env.get("ADMIN_PASSWORD") ?? randomPassword();

console.log(`Starting PostgreSQL, nats-server, ${count} instances and HAProxy…`);
let cluster: TestCluster;
try {
  cluster = await startCluster({
    instances: count,
    services: "own",
    env: { ADMIN_PASSWORD: password },
    publicPorts: requested,
    bindHost: host,
  });
} catch (e) {
  console.error(`cluster:local failed to start: ${(e as Error).message}`);
  Deno.exit(1);
}

const p = cluster.ports;
console.log(`
Tracking Platform cluster on loopback: ${count} instances, PostgreSQL, NATS, HAProxy.

  Console          ${cluster.url}   (user admin, password ${password})
  Device ports     GT06 ${p.gt06}, JT/T 808 ${p.jt808}, H02 ${p.h02} (TCP), OsmAnd ${p.osmand} (HTTP)
  Video            JT/T 1078 media ${p.jt1078}, attachments ${p.attachments} (TCP)
  DATABASE_URL     ${cluster.databaseUrl}
  NATS_URL         ${cluster.natsUrl}
  Instances        ${cluster.instances.map((i) => i.url).join(", ")}

Try: deno task simulate --devices 50 --port ${p.gt06} --import --account admin --password ${password} --api ${cluster.url}
Ctrl-C stops everything.`);

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  console.log("\nStopping the instances, HAProxy, NATS and PostgreSQL…");
  await cluster.stop();
  Deno.exit(0);
};
Deno.addSignalListener("SIGINT", stop);
Deno.addSignalListener("SIGTERM", stop);
