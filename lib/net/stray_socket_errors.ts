/**
 * Node-style client libraries (`pg`, `@nats-io/transport-node`) sometimes drop a socket's
 * listeners before the peer's reset arrives. Node then throws the reset as an uncaught error and
 * Deno ends the process: measured with NATS refusing rotated credentials on a reconnect, which
 * took every instance down. A connection reset that nobody listens for is already handled by the
 * library that dropped it (it reconnects or has reported the failure), so it is logged and the
 * process goes on. Anything else stays fatal.
 */
import { log } from "../log.ts";

/** The errors a peer's reset raises on a socket (Node's errno codes). */
const RESETS = new Set(["ECONNRESET", "EPIPE", "ECONNABORTED"]);
/** One log line per this many milliseconds at most (a flapping peer resets often). */
const LOG_EVERY_MS = 60_000;

let installed = false;

/** Whether an uncaught error is a socket reset nobody listened for. */
export function isStraySocketReset(error: unknown): boolean {
  const e = error as { code?: unknown; syscall?: unknown } | null;
  return !!e && typeof e.code === "string" && RESETS.has(e.code) &&
    (e.syscall === "read" || e.syscall === "write");
}

/** Installs the guard once per process (cluster mode: lib/cluster/open.ts). */
export function guardStraySocketResets(): void {
  if (installed) return;
  installed = true;
  const netLog = log.area("net");
  let loggedAt = -Infinity, ignored = 0;
  globalThis.addEventListener("error", (event) => {
    if (!isStraySocketReset(event.error)) return;
    event.preventDefault();
    ignored++;
    if (Date.now() - loggedAt < LOG_EVERY_MS) return;
    loggedAt = Date.now();
    const e = event.error as Error & { code: string };
    netLog.warn(
      `a socket reset nobody listened for was ignored (${e.code}: ${e.message}; ${ignored} so far)`,
    );
  });
}
