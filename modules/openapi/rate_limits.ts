/**
 * Open API rate limits (issue 22), in memory (one process; a limit must not cost a store
 * write per call): per app key a token bucket (OPENAPI_KEY_RATE calls/s, holding
 * OPENAPI_KEY_BURST; empty → 1006), per client address a one-second window
 * (OPENAPI_IP_RATE; over → 1005). Idle buckets are dropped so the map does not grow.
 */
import { RateLimiter } from "../../lib/http/rate_limiter.ts";

export interface OpenRateConfig {
  OPENAPI_KEY_RATE: number;
  OPENAPI_KEY_BURST: number;
  OPENAPI_IP_RATE: number;
}

interface Bucket {
  tokens: number;
  at: number;
}

export class OpenRateLimits {
  private readonly perAddress: RateLimiter;
  private readonly buckets = new Map<string, Bucket>();
  private sweptAt = 0;

  constructor(private readonly config: OpenRateConfig, private readonly now = Date.now) {
    this.perAddress = new RateLimiter(config.OPENAPI_IP_RATE, 1000, now);
  }

  /** Counts a call from an address; false when the address is over its limit. */
  address(ip: string): boolean {
    return this.perAddress.hit(ip);
  }

  /** Takes one call from a key's bucket; false when it is empty. */
  key(appKey: string): boolean {
    const now = this.now();
    const { OPENAPI_KEY_RATE: rate, OPENAPI_KEY_BURST: burst } = this.config;
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
