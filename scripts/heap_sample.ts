/**
 * Allocation profile of a running server: connects to its inspector, samples allocations for
 * a while and prints the functions that allocated most (bytes, by allocating function).
 *
 *   deno task bench:ingest --server-flags="--inspect=127.0.0.1:9229" &   # or any server
 *   deno run -A scripts/heap_sample.ts --seconds 10 [--inspector 127.0.0.1:9229] [--survivors]
 *     [--stacks 3]
 *
 * By default objects collected by minor and major GCs are included: this shows the allocation
 * rate (what drives scavenges), not what stays alive. `--survivors` leaves out what the
 * scavenger collected: what is left was promoted to the old generation (and is what the
 * mark-compact collections, and their pauses, are made of).
 */
interface ProfileNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: ProfileNode[];
}

function option(name: string, fallback: string): string {
  const i = Deno.args.indexOf(`--${name}`);
  return i >= 0 && Deno.args[i + 1] ? Deno.args[i + 1] : fallback;
}

const seconds = Number(option("seconds", "10"));
const inspector = option("inspector", "127.0.0.1:9229");
const survivors = Deno.args.includes("--survivors");
/** `--stacks N`: group by the allocating function and its N-1 callers instead. */
const depth = Number(option("stacks", "1"));
const targets = await (await fetch(`http://${inspector}/json`)).json();
const ws = new WebSocket(targets[0].webSocketDebuggerUrl);
await new Promise((resolve, reject) => {
  ws.onopen = resolve;
  ws.onerror = reject;
});
let nextId = 0;
const waiting = new Map<number, (result: unknown) => void>();
ws.onmessage = (e) => {
  const m = JSON.parse(e.data);
  waiting.get(m.id)?.(m.result);
  waiting.delete(m.id);
};
function call<T>(method: string, params: Record<string, unknown> = {}): Promise<T> {
  return new Promise((resolve) => {
    const id = ++nextId;
    waiting.set(id, resolve as (r: unknown) => void);
    ws.send(JSON.stringify({ id, method, params }));
  });
}

await call("HeapProfiler.enable");
await call("HeapProfiler.startSampling", {
  samplingInterval: 4096,
  includeObjectsCollectedByMajorGC: true,
  includeObjectsCollectedByMinorGC: !survivors,
});
await new Promise((r) => setTimeout(r, seconds * 1000));
const { profile } = await call<{ profile: { head: ProfileNode } }>("HeapProfiler.stopSampling");
ws.close();

const byFunction = new Map<string, number>();
let total = 0;
const frameName = (f: ProfileNode["callFrame"]) =>
  `${f.functionName || "(anonymous)"} ${f.url.split("/").pop()}:${f.lineNumber + 1}`;
const walk = (n: ProfileNode, callers: string[]) => {
  const path = [frameName(n.callFrame), ...callers];
  const name = path.slice(0, depth).join(" < ");
  byFunction.set(name, (byFunction.get(name) ?? 0) + n.selfSize);
  total += n.selfSize;
  for (const c of n.children) walk(c, path);
};
walk(profile.head, []);
console.log(
  `${survivors ? "promoted" : "allocated"} ~${
    (total / 1e6).toFixed(0)
  } MB in ${seconds} s (sampled)`,
);
for (const [name, bytes] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, 30)) {
  console.log(
    `${(100 * bytes / total).toFixed(1).padStart(5)} % ${
      (bytes / 1e6).toFixed(1).padStart(7)
    } MB  ${name}`,
  );
}
