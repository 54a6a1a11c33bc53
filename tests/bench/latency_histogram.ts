/** Latency percentiles for the benches: milliseconds counted in 0.1 ms buckets up to 30 s. */
export class Histogram {
  private counts = new Uint32Array(300_001);
  n = 0;
  max = 0;

  add(ms: number) {
    this.counts[Math.min(this.counts.length - 1, Math.round(ms * 10))]++;
    this.n++;
    if (ms > this.max) this.max = ms;
  }

  percentile(p: number): number {
    if (!this.n) return NaN;
    const rank = Math.ceil((p / 100) * this.n);
    let seen = 0;
    for (let i = 0; i < this.counts.length; i++) {
      seen += this.counts[i];
      if (seen >= rank) return i / 10;
    }
    return this.max;
  }
}
