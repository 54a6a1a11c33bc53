/**
 * Open API rate limits (issue 22), in memory (a limit must not cost a store write per call):
 * per app key a token bucket (OPENAPI_KEY_RATE calls/s, holding OPENAPI_KEY_BURST; empty →
 * 1006), per client address a one-second window (OPENAPI_IP_RATE; over → 1005). Idle buckets
 * are dropped so the map does not grow.
 *
 * Cluster mode (issue 23): N instances behind a balancer each enforce their share, the limit
 * divided by the live instance count (`instances`, from the gateway's heartbeats), so the sum
 * over the instances is the configured limit when the balancer spreads calls evenly. Single
 * mode: one instance, the whole limit, as before.
 */
export interface OpenRateConfig {
  OPENAPI_KEY_RATE: number;
  OPENAPI_KEY_BURST: number;
  OPENAPI_IP_RATE: number;
}

interface Bucket {
  tokens: number;
  at: number;
}

export interface OpenRateOptions {
  now?: () => number;
  /** Live instances sharing the limits (cluster mode); 1 when not given. */
  instances?: () => number;
}

export class OpenRateLimits {
  private readonly buckets = new Map<string, Bucket>();
  private sweptAt = 0;
  private window = 0;
  private readonly perAddress = new Map<string, number>();
  private readonly now: () => number;
  private readonly instances: () => number;

  constructor(private readonly config: OpenRateConfig, options: OpenRateOptions = {}) {
    this.now = options.now ?? Date.now;
    this.instances = options.instances ?? (() => 1);
  }

  /** This instance's share of a limit: at least 1 call, so a small limit never blocks all. */
  private share(limit: number): number {
    return Math.max(1, limit / Math.max(1, this.instances()));
  }

  /** Counts a call from an address; false when the address is over its limit. */
  address(ip: string): boolean {
    const w = Math.floor(this.now() / 1000);
    if (w !== this.window) {
      this.window = w;
      this.perAddress.clear();
    }
    const n = (this.perAddress.get(ip) ?? 0) + 1;
    this.perAddress.set(ip, n);
    return n <= Math.ceil(this.share(this.config.OPENAPI_IP_RATE));
  }

  /** Takes one call from a key's bucket; false when it is empty. */
  key(appKey: string): boolean {
    const now = this.now();
    const rate = this.share(this.config.OPENAPI_KEY_RATE);
    const burst = this.share(this.config.OPENAPI_KEY_BURST);
    const b = this.buckets.get(appKey) ?? { tokens: burst, at: now };
    b.tokens = Math.min(burst, b.tokens + (now - b.at) * rate / 1000);
    b.at = now;
    this.buckets.set(appKey, b);
    this.sweep(now);
    if (b.tokens < 1) return false;
    b.tokens -= 1;
    return true;
  }

  /** Drops buckets that have refilled (idle long enough) once a minute. */
  private sweep(now: number) {
    if (now - this.sweptAt < 60_000) return;
    this.sweptAt = now;
    const full = this.config.OPENAPI_KEY_BURST * 1000 / this.config.OPENAPI_KEY_RATE;
    for (const [k, b] of this.buckets) if (now - b.at > full) this.buckets.delete(k);
  }
}
