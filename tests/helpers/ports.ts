/**
 * Loopback ports for the servers tests start. A port found free by binding port 0 comes from
 * the kernel's ephemeral range, which every outgoing connection on the machine draws from too:
 * between the probe and the server's bind, a client socket (a fetch, a browser, a database
 * connection) may take it. So ports come from below that range, where the kernel never puts a
 * client socket, and each process of a test run gets its own block of them
 * (TP_TEST_PORT_BLOCK="i/n", set by the test task per pass), so passes running side by side
 * never hand out the same port. Outside the task the whole range is used from a random start.
 */

/** Below this no port is handed out (well-known services and common development servers). */
export const LOWEST = 10_000;

/** The first port the kernel uses for outgoing connections (Linux: ip_local_port_range). */
export function ephemeralStart(): number {
  try {
    const text = Deno.readTextFileSync("/proc/sys/net/ipv4/ip_local_port_range");
    const low = Number(text.trim().split(/\s+/)[0]);
    if (Number.isInteger(low) && low > LOWEST + 1000) return low;
  } catch { /* not Linux, or not readable: the IANA default */ }
  return 49_152;
}

/** This process's block [from, to) out of "i/n" (a malformed value is a loud error). */
export function portBlock(spec: string | undefined, top = ephemeralStart()): [number, number] {
  if (!spec) return [LOWEST, top];
  const m = /^(\d+)\/(\d+)$/.exec(spec);
  if (!m || Number(m[2]) < 1 || Number(m[1]) >= Number(m[2])) {
    throw new Error(`TP_TEST_PORT_BLOCK must be "i/n" with i < n, not ${JSON.stringify(spec)}`);
  }
  const size = Math.floor((top - LOWEST) / Number(m[2]));
  const from = LOWEST + Number(m[1]) * size;
  return [from, from + size];
}

const [FROM, TO] = portBlock(Deno.env.get("TP_TEST_PORT_BLOCK"));
let cursor = FROM + Math.floor(Math.random() * (TO - FROM));

/** Whether nothing listens on 127.0.0.1:port right now. */
function bindable(port: number): boolean {
  try {
    Deno.listen({ hostname: "127.0.0.1", port }).close();
    return true;
  } catch {
    return false;
  }
}

/**
 * The next free loopback port of this process's block. Handed out in turn, so a port given
 * before (whose server may still be starting, or be restarted on it) is not given again until
 * the block wraps around.
 */
export function freePort(): number {
  for (let tries = 0; tries < TO - FROM; tries++) {
    const port = cursor;
    cursor = cursor + 1 >= TO ? FROM : cursor + 1;
    if (bindable(port)) return port;
  }
  throw new Error(`no free loopback port in ${FROM}-${TO - 1}`);
}
