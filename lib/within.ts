/**
 * Waits for `work` at most `ms`: true when it resolved in time, false when it failed or the
 * time ran out (it goes on, unwatched). The timer is cleared either way, so a finished wait
 * holds nothing open (a stopping process or a test's sanitizer sees no stray timer).
 */
export function within(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    work.then(() => true, () => false),
    new Promise<boolean>((r) => timer = setTimeout(() => r(false), ms)),
  ]).finally(() => clearTimeout(timer));
}
