/**
 * A cluster on loopback for tests, benches and `deno task cluster:local` (issue 23): one
 * PostgreSQL database, one nats-server, N instances of main.ts (each on its own ports, all on
 * the same DATABASE_URL and NATS_URL) and HAProxy in front on the public ports — HTTP for the
 * console (health-checked on /health), TCP for the device ports. A killed instance fails its
 * checks within ~1.5 s and new connections go to the others (failed connects are redispatched
 * at once).
 */
import { freePort, type ServerProcess, startServer } from "./server.ts";
import { startPostgres, type TestPostgres, testPostgres } from "./postgres.ts";
import { startNats, type TestNats, testNats } from "./nats.ts";

/** The listening ports of one instance, or the balancer's public ones. */
export interface ClusterPorts {
  http: number;
  gt06: number;
  jt808: number;
  h02: number;
  osmand: number;
  jt1078: number;
  attachments: number;
}

/** Environment variable of each device port. */
const PORT_VARS: Record<Exclude<keyof ClusterPorts, "http">, string> = {
  gt06: "GT06_PORT",
  jt808: "JT808_PORT",
  h02: "H02_PORT",
  osmand: "OSMAND_PORT",
  jt1078: "JT1078_PORT",
  attachments: "JT_ATTACHMENT_PORT",
};

export interface ClusterInstance {
  index: number;
  url: string;
  ports: ClusterPorts;
  server: ServerProcess;
  /** False once killed or stopped. */
  alive: boolean;
}

export interface ClusterOptions {
  /** Instances (default 3). */
  instances?: number;
  /** Environment of every instance (e.g. ADMIN_PASSWORD). */
  env?: Record<string, string>;
  /** Public ports to bind on the balancer; a missing one gets a free port. */
  publicPorts?: Partial<ClusterPorts>;
  /** Balancer address (default 127.0.0.1). */
  bindHost?: string;
  /**
   * "test": the run's PostgreSQL / NATS when the test task started them (TP_TEST_*), else new
   * ones; "own": always new ones (stopped with the cluster).
   */
  services?: "test" | "own";
  /**
   * "separate": instances without DATABASE_URL / NATS_URL, each on its own KV file — only for
   * checking the balancer itself (default "cluster").
   */
  store?: "cluster" | "separate";
  /** Runs on the new database before any instance starts (a bench seeding its data). */
  prepare?: (databaseUrl: string) => Promise<void>;
}

export interface TestCluster {
  /** The console through the balancer. */
  url: string;
  /** The balancer's public ports. */
  ports: ClusterPorts;
  instances: ClusterInstance[];
  databaseUrl: string;
  natsUrl: string;
  /** The generated HAProxy configuration (docs/cluster.md shows the same shape). */
  haproxyConfig: string;
  /** SIGKILL of instance i: no shutdown, no flush. */
  kill(i: number): void;
  /** Waits until the balancer sends console requests to exactly the live instances. */
  waitBalanced(timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Starts PostgreSQL (a fresh database), NATS, the instances and HAProxy. */
export async function startCluster(opts: ClusterOptions = {}): Promise<TestCluster> {
  requireHaproxy();
  const count = opts.instances ?? 3;
  const own = opts.services === "own";
  const pg: TestPostgres = own ? await startPostgres() : await testPostgres();
  let nats: TestNats | null = null;
  const instances: ClusterInstance[] = [];
  let haproxy: Haproxy | null = null;
  const stopAll = async () => {
    await haproxy?.stop();
    await Promise.allSettled(instances.map((i) => i.alive ? i.server.stop() : Promise.resolve()));
    for (const i of instances) {
      i.alive = false;
      await Deno.remove(i.server.dataDir, { recursive: true }).catch(() => {});
    }
    await nats?.stop();
    await pg.stop();
  };
  try {
    nats = own ? await startNats() : await testNats();
    const databaseUrl = await pg.createDatabase("tp_cluster");
    await opts.prepare?.(databaseUrl);
    const ports = publicPorts(opts.publicPorts);
    // Video terminals are told the balancer's media port, not the instance's.
    const shared = { MEDIA_PUBLIC_PORT: String(ports.jt1078), ...opts.env };
    const env = opts.store === "separate"
      ? shared
      : { ...shared, DATABASE_URL: databaseUrl, NATS_URL: nats.url };
    // The first instance alone: it applies the migrations and creates the administrator.
    instances.push(await startInstance(0, env));
    instances.push(
      ...await Promise.all(Array.from({ length: count - 1 }, (_, i) => startInstance(i + 1, env))),
    );
    const host = opts.bindHost ?? "127.0.0.1";
    const haproxyConfig = haproxyConfigText(host, ports, instances.map((i) => i.ports));
    haproxy = await startHaproxy(haproxyConfig, host, ports.http);
    const url = `http://${host === "0.0.0.0" ? "127.0.0.1" : host}:${ports.http}`;
    const cluster: TestCluster = {
      url,
      ports,
      instances,
      databaseUrl,
      natsUrl: nats.url,
      haproxyConfig,
      kill(i) {
        instances[i].server.kill();
        instances[i].alive = false;
      },
      waitBalanced: (timeoutMs = 10_000) => waitBalanced(haproxy!, instances, timeoutMs),
      stop: stopAll,
    };
    await cluster.waitBalanced();
    return cluster;
  } catch (e) {
    await stopAll();
    throw e;
  }
}

/**
 * Starts instance `index` on fresh ports. A port picked free may be taken by another process
 * before the instance binds it (a busy machine): then it starts again on new ports.
 */
async function startInstance(index: number, env: Record<string, string>): Promise<ClusterInstance> {
  for (let attempt = 1;; attempt++) {
    try {
      return await startInstanceOnce(index, env);
    } catch (e) {
      if (attempt >= 3 || !/already in use/.test(String(e))) throw e;
    }
  }
}

async function startInstanceOnce(
  index: number,
  env: Record<string, string>,
): Promise<ClusterInstance> {
  const device = Object.fromEntries(
    Object.keys(PORT_VARS).map((k) => [k, freePort()]),
  ) as Omit<ClusterPorts, "http">;
  const portEnv = Object.fromEntries(
    Object.entries(PORT_VARS).map(([k, v]) => [v, String(device[k as keyof typeof device])]),
  );
  const server = await startServer({ ...env, ...portEnv });
  return { index, url: server.url, ports: { http: server.port, ...device }, server, alive: true };
}

function publicPorts(given: Partial<ClusterPorts> = {}): ClusterPorts {
  const pick = (k: keyof ClusterPorts) => given[k] ?? freePort();
  return {
    http: pick("http"),
    gt06: pick("gt06"),
    jt808: pick("jt808"),
    h02: pick("h02"),
    osmand: pick("osmand"),
    jt1078: pick("jt1078"),
    attachments: pick("attachments"),
  };
}

/** Fails early, naming the package, when haproxy is not installed. */
function requireHaproxy(): void {
  try {
    new Deno.Command("haproxy", { args: ["-v"], stdout: "null", stderr: "null" }).outputSync();
  } catch {
    throw new Error(
      "haproxy not found. Install it with: apt-get install -y postgresql nats-server haproxy",
    );
  }
}

/**
 * HAProxy's configuration: the console in HTTP mode (round robin: a session token works on
 * every instance), device ports in TCP mode (least connections: long-lived sockets), OsmAnd
 * (one HTTP request per fix) by the device's id parameter. Every server is checked on its console's /health
 * every 500 ms; two failures take it out. `option redispatch` + `retries` send a connection
 * refused by a dead instance to another one before the checks notice.
 */
export function haproxyConfigText(
  host: string,
  ports: ClusterPorts,
  instances: ClusterPorts[],
  serverHost = "127.0.0.1",
): string {
  const servers = (port: (p: ClusterPorts) => number) =>
    instances.map((p, i) => `  server tp${i + 1} ${serverHost}:${port(p)} check port ${p.http}`)
      .join("\n");
  const tcp = (name: string, port: (p: ClusterPorts) => number, balance: string) => `
frontend ${name}
  mode tcp
  bind ${host}:${port(ports)}
  default_backend ${name}_instances

backend ${name}_instances
  mode tcp
  balance ${balance}
  option httpchk GET /health
  http-check expect status 200
${servers(port)}
`;
  return `# Tracking Platform cluster: ${instances.length} instances behind one HAProxy.
global
  # Two descriptors per proxied connection, within the usual 20,000-descriptor hard limit.
  maxconn 9000

defaults
  timeout connect 2s
  # Devices may stay quiet for minutes between heartbeats; SSE streams last for hours.
  timeout client 30m
  timeout server 30m
  timeout tunnel 12h
  timeout http-request 30s
  retries 3
  option redispatch
  default-server inter 500ms fastinter 250ms downinter 1s fall 2 rise 2

frontend console
  mode http
  bind ${host}:${ports.http}
  option forwardfor
  default_backend console_instances

backend console_instances
  mode http
  balance roundrobin
  option httpchk GET /health
  http-check expect status 200
${servers((p) => p.http)}

frontend osmand
  mode http
  bind ${host}:${ports.osmand}
  option forwardfor
  default_backend osmand_instances

backend osmand_instances
  mode http
  # One device's fixes to one instance (its motion analysis and alert state live there): by the
  # id parameter (query or form body), consistent so a dead instance moves only its devices.
  balance url_param id check_post
  hash-type consistent
  option httpchk GET /health
  http-check expect status 200
${servers((p) => p.osmand)}
${tcp("gt06", (p) => p.gt06, "leastconn")}${tcp("jt808", (p) => p.jt808, "leastconn")}${
    tcp("h02", (p) => p.h02, "leastconn")
  }${tcp("jt1078", (p) => p.jt1078, "leastconn")}${
    tcp("attachments", (p) => p.attachments, "roundrobin")
  }`;
}

interface Haproxy {
  /** Instance numbers (1-based, as in the config) HAProxy lists UP in the console backend. */
  upServers(): Promise<number[]>;
  stop(): Promise<void>;
}

async function startHaproxy(config: string, host: string, httpPort: number): Promise<Haproxy> {
  const dir = await Deno.makeTempDir({ prefix: "tp-haproxy-" });
  const socket = `${dir}/admin.sock`;
  const text = config.replace(
    "global\n",
    `global\n  stats socket ${socket} mode 600 level admin\n`,
  );
  await Deno.writeTextFile(`${dir}/haproxy.cfg`, text);
  const child = new Deno.Command("haproxy", {
    args: ["-f", `${dir}/haproxy.cfg`, "-db"],
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let output = "";
  const collect = async (s: ReadableStream<Uint8Array>) => {
    const d = new TextDecoder();
    for await (const c of s) output = (output + d.decode(c, { stream: true })).slice(-20_000);
  };
  const pumps = [collect(child.stdout), collect(child.stderr)];
  let exited = false;
  child.status.then(() => (exited = true));
  const connectHost = host === "0.0.0.0" ? "127.0.0.1" : host;
  for (let i = 0;; i++) {
    if (exited) {
      await Promise.allSettled(pumps);
      throw new Error(`haproxy exited:\n${output}`);
    }
    try {
      (await Deno.connect({ hostname: connectHost, port: httpPort })).close();
      break;
    } catch {
      if (i > 100) throw new Error(`haproxy did not listen on ${httpPort}:\n${output}`);
      await sleep(50);
    }
  }
  return {
    async upServers() {
      const stat = await adminCommand(socket, "show stat");
      return stat.split("\n").filter((l) => l.startsWith("console_instances,tp"))
        .map((l) => l.split(","))
        .filter((f) => f[17] === "UP")
        .map((f) => Number(f[1].slice(2)));
    },
    async stop() {
      try {
        child.kill("SIGTERM");
      } catch { /* gone */ }
      await child.status;
      await Promise.allSettled(pumps);
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
}

/** One command on HAProxy's admin socket; the answer ends when HAProxy closes. */
async function adminCommand(path: string, command: string): Promise<string> {
  const conn = await Deno.connect({ transport: "unix", path });
  try {
    await conn.write(new TextEncoder().encode(`${command}\n`));
    const chunks: Uint8Array[] = [];
    const buf = new Uint8Array(16_384);
    for (;;) {
      const n = await conn.read(buf);
      if (n === null) break;
      chunks.push(buf.slice(0, n));
    }
    return new TextDecoder().decode(
      chunks.reduce((a, b) => {
        const c = new Uint8Array(a.length + b.length);
        c.set(a);
        c.set(b, a.length);
        return c;
      }, new Uint8Array(0)),
    );
  } finally {
    try {
      conn.close();
    } catch { /* closed by HAProxy */ }
  }
}

async function waitBalanced(
  haproxy: Haproxy,
  instances: ClusterInstance[],
  timeoutMs: number,
): Promise<void> {
  const want = instances.filter((i) => i.alive).map((i) => i.index + 1).join(",");
  const end = Date.now() + timeoutMs;
  for (;;) {
    const up = (await haproxy.upServers()).join(",");
    if (up === want) return;
    if (Date.now() > end) {
      throw new Error(`HAProxy lists instances [${up}] up, expected [${want}]`);
    }
    await sleep(100);
  }
}
