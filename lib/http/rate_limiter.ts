/**
 * Fixed-window counter kept in memory: enough for one process, and it must not write to
 * the store on every request. Old windows are dropped as new ones start.
 */
export class RateLimiter {
  private window = 0;
  private counts = new Map<string, number>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now = Date.now,
  ) {}

  /** Counts one hit for key; false when the key is over its limit in this window. */
  hit(key: string): boolean {
    const w = Math.floor(this.now() / this.windowMs);
    if (w !== this.window) {
      this.window = w;
      this.counts.clear();
    }
    const n = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, n);
    return n <= this.limit;
  }
}
