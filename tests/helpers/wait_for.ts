/** Polling with a deadline: tests wait for conditions (across processes too), not for sleeps. */

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `fn` every 100 ms until it gives a truthy value; a throw counts as not yet. */
export async function waitFor<T>(
  what: string,
  fn: () => Promise<T | null | undefined | false>,
  timeoutMs = 15_000,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn().catch(() => null);
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}
