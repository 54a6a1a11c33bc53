/**
 * `Deno.serve` that stays up. When its accept loop fails — out of file descriptors
 * (EMFILE), say — Deno ends the server and rejects `finished`; unhandled, that rejection
 * ends the whole process (console, API and device gateway). Here it is logged and the
 * listener is created again on the same address, retrying until descriptors are free.
 */

export interface KeptServer {
  /** The bound address (the same after every re-creation). */
  readonly addr: Deno.NetAddr;
  /** Stops serving for good. */
  shutdown(): Promise<void>;
}

export interface KeptServerOptions {
  /** Named in the log: "console", "OsmAnd". */
  name: string;
  hostname: string;
  port: number;
  log: (line: string) => void;
}

/** First and longest wait before trying to listen again. */
const RETRY_FIRST_MS = 100;
const RETRY_MAX_MS = 5_000;

/**
 * Serves `handler` on the address; throws as `Deno.serve` does when the first listen fails
 * (e.g. the port is in use), so start-up still stops with the reason.
 */
export function serveKept(o: KeptServerOptions, handler: Deno.ServeHandler): KeptServer {
  let server = listen(o.hostname, o.port, handler);
  const addr = server.addr as Deno.NetAddr;
  let stopping = false;
  let retry: ReturnType<typeof setTimeout> | undefined;

  const watch = (s: Deno.HttpServer) => {
    s.finished.catch((e) => {
      if (stopping) return;
      o.log(
        `${o.name}: HTTP listener on port ${addr.port} stopped accepting ` +
          `(${(e as Error)?.message ?? e}); re-creating it`,
      );
      s.shutdown().catch(() => {});
      recreate(RETRY_FIRST_MS, 1);
    });
  };

  const recreate = (wait: number, attempt: number) => {
    retry = setTimeout(() => {
      retry = undefined;
      if (stopping) return;
      try {
        server = listen(addr.hostname, addr.port, handler);
      } catch (e) {
        // Still out of descriptors (or the port briefly held): log now and then, keep trying.
        if (attempt === 1 || attempt % 20 === 0) {
          o.log(`${o.name}: HTTP listener not re-created yet (${(e as Error).message}); retrying`);
        }
        return recreate(Math.min(wait * 2, RETRY_MAX_MS), attempt + 1);
      }
      o.log(`${o.name}: HTTP listener on port ${addr.port} re-created`);
      watch(server);
    }, wait);
  };

  watch(server);
  return {
    addr,
    async shutdown() {
      stopping = true;
      clearTimeout(retry);
      await server.shutdown();
    },
  };
}

function listen(hostname: string, port: number, handler: Deno.ServeHandler): Deno.HttpServer {
  return Deno.serve({ hostname, port, onListen: () => {} }, handler);
}
