/**
 * What the position store remembers of a device's blocks over the last range it read for
 * JSON (keys, times, versionstamps; no values), valid while that device's blocks are unchanged:
 * a repeated track read (an integrator polling jimi.device.track.list, a replayed playback)
 * then lists nothing and takes every whole block's JSON from the cache.
 *
 * Every block write of the store bumps the device's generation after it is committed; a range
 * read remembers its blocks only under the generation it started with, so a list that raced
 * a compaction is never kept.
 */
export interface BlockMeta {
  key: Deno.KvKey;
  first: number;
  last: number;
  versionstamp: string;
}

interface Remembered {
  gen: number;
  from: number;
  to: number;
  blocks: BlockMeta[];
}

export class BlockIndex {
  private gens = new Map<string, number>();
  private ranges = new Map<string, Remembered>();

  generation(imei: string): number {
    return this.gens.get(imei) ?? 0;
  }

  /** The device's blocks were written or deleted (after the commit). */
  changed(imei: string): void {
    this.gens.set(imei, this.generation(imei) + 1);
    this.ranges.delete(imei);
  }

  /** Keeps what a read found, unless the blocks changed since it began (`gen`). */
  remember(imei: string, gen: number, from: number, to: number, blocks: BlockMeta[]): void {
    if (gen !== this.generation(imei)) return;
    this.ranges.set(imei, { gen, from, to, blocks });
  }

  /** The blocks overlapping [from, to] when a remembered, current read covers it; else null. */
  covering(imei: string, from: number, to: number): BlockMeta[] | null {
    const r = this.ranges.get(imei);
    if (!r || r.gen !== this.generation(imei) || from < r.from || to > r.to) return null;
    return r.blocks.filter((b) => b.first <= to && b.last >= from);
  }
}
