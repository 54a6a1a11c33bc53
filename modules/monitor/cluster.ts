/**
 * Screen-grid clustering for zoomed-out maps: O(n) per view change, so 10,000 vehicles
 * cluster in a few milliseconds (OpenLayers' Cluster source re-clusters on every feature
 * change, which live updates make far too frequent).
 */
export interface ClusterCell {
  x: number;
  y: number;
  count: number;
  /** Index of one member (the first), for a single-member cell. */
  first: number;
  /** Members per class (0-7) when `classOf` was given, e.g. per vehicle status. */
  byClass?: number[];
}

/**
 * xs/ys in map units; cell size = cellPx × resolution. NaN coordinates are skipped, and so
 * are points outside `within` ([minX, minY, maxX, maxY]) when given. `classOf` (0-7 per
 * point) makes each cell count its members per class. Cells are keyed by a number (no
 * string per point): 10,000 points cluster in about a millisecond.
 */
export function gridCluster(
  xs: ArrayLike<number>,
  ys: ArrayLike<number>,
  resolution: number,
  cellPx = 64,
  opts: { within?: readonly number[]; classOf?: ArrayLike<number> } = {},
): ClusterCell[] {
  const size = cellPx * resolution, classOf = opts.classOf;
  const [minX, minY, maxX, maxY] = opts.within ?? [-Infinity, -Infinity, Infinity, Infinity];
  const cells = new Map<number, number>();
  const out: (ClusterCell & { sx: number; sy: number })[] = [];
  for (let i = 0; i < xs.length; i++) {
    const x = xs[i], y = ys[i];
    if (!(x >= minX && x <= maxX && y >= minY && y <= maxY)) continue; // also skips NaN
    // Cell columns and rows stay within ±2^22 at any zoom, so the key is exact.
    const key = Math.floor(x / size) * 8_388_608 + Math.floor(y / size);
    let k = cells.get(key);
    if (k !== undefined) {
      const c = out[k];
      c.count++;
      c.sx += x;
      c.sy += y;
    } else {
      k = out.length;
      cells.set(key, k);
      out.push({
        x,
        y,
        count: 1,
        first: i,
        sx: x,
        sy: y,
        byClass: classOf && [0, 0, 0, 0, 0, 0, 0, 0],
      });
    }
    if (classOf) out[k].byClass![classOf[i] & 7]++;
  }
  return out.map((c) => ({
    x: c.sx / c.count,
    y: c.sy / c.count,
    count: c.count,
    first: c.first,
    byClass: c.byClass,
  }));
}
