/** Small seeded PRNG (mulberry32): the simulator is deterministic for a given seed. */
export class Rng {
  private state: number;

  constructor(seed: number) {
    // Mix the seed so nearby seeds (device 1, 2, 3…) give unrelated sequences.
    let s = (seed ^ 0x9e3779b9) >>> 0;
    s = Math.imul(s ^ (s >>> 16), 0x85ebca6b) >>> 0;
    s = Math.imul(s ^ (s >>> 13), 0xc2b2ae35) >>> 0;
    this.state = (s ^ (s >>> 16)) >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Uniform in [min, max). */
  range(min: number, max: number): number {
    return min + (max - min) * this.next();
  }

  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return Math.floor(this.range(min, max + 1));
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  /** A child generator, e.g. one per device, that does not disturb this one's sequence. */
  fork(salt: number): Rng {
    return new Rng((Math.floor(this.next() * 0x7fffffff) ^ Math.imul(salt + 1, 0x27d4eb2d)) >>> 0);
  }
}
