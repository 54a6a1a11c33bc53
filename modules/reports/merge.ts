/**
 * Reading many devices at once and paging their rows in time order: each device's list is
 * already sorted, so a page is cut from a k-way merge (the total is the sum of the lengths,
 * exact, without sorting every row).
 */

/** Device reads in flight at once: the store answers in parallel, memory stays bounded. */
export const READ_CONCURRENCY = 16;

/** Maps items with at most `limit` calls in flight; results in the items' order. */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** A list sorted by time (whole epoch ms), seen through its length and each entry's time. */
export interface SortedList {
  readonly length: number;
  time(index: number): number;
}

/**
 * The entries skip..skip+take-1 of the lists merged by time (ties: the earlier list first,
 * i.e. the request's device order), as [list, index] pairs. The page's start is found by
 * binary search on time (any page costs about the same), then merged from there.
 */
export function mergedSlice(
  lists: readonly SortedList[],
  skip: number,
  take: number,
): Array<[number, number]> {
  const pos = startPositions(lists, skip);
  const heap = new MinHeap();
  lists.forEach((l, li) => pos[li] < l.length && heap.push(l.time(pos[li]), li));
  const out: Array<[number, number]> = [];
  while (heap.size && out.length < take) {
    const li = heap.pop();
    out.push([li, pos[li]++]);
    if (pos[li] < lists[li].length) heap.push(lists[li].time(pos[li]), li);
  }
  return out;
}

/** Where each list stands after the first `skip` entries of the merge. */
function startPositions(lists: readonly SortedList[], skip: number): number[] {
  const total = totalOf(lists);
  if (skip <= 0) return lists.map(() => 0);
  if (skip >= total) return lists.map((l) => l.length);
  // The time of the merge's entry number `skip`: the least t with more than `skip` entries ≤ t.
  let lo = Infinity, hi = -Infinity;
  for (const l of lists) {
    if (!l.length) continue;
    lo = Math.min(lo, l.time(0));
    hi = Math.max(hi, l.time(l.length - 1));
  }
  const countAtOrBefore = (t: number) => lists.reduce((n, l) => n + firstAfter(l, t), 0);
  // Times are whole epoch ms: the least whole t passing is an entry's time.
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (countAtOrBefore(mid) > skip) hi = mid;
    else lo = mid + 1;
  }
  const t = lo;
  // Entries before t are skipped; of those at t, the earlier lists' go first.
  const pos = lists.map((l) => firstAtOrAfter(l, t));
  let left = skip - pos.reduce((n, p) => n + p, 0);
  lists.forEach((l, li) => {
    const equal = firstAfter(l, t) - pos[li];
    const n = Math.min(left, equal);
    pos[li] += n;
    left -= n;
  });
  return pos;
}

/** The first index whose time is at or after `t`. */
function firstAtOrAfter(l: SortedList, t: number): number {
  let lo = 0, hi = l.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (l.time(mid) < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The first index whose time is after `t` (how many are at or before it). */
function firstAfter(l: SortedList, t: number): number {
  let lo = 0, hi = l.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (l.time(mid) <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The sum of the lists' lengths (a report's exact total). */
export const totalOf = (lists: readonly { length: number }[]): number =>
  lists.reduce((n, l) => n + l.length, 0);

/** A binary heap of (time, list) ordered by time, then list. */
class MinHeap {
  private times: number[] = [];
  private lists: number[] = [];

  get size(): number {
    return this.times.length;
  }

  private less(a: number, b: number): boolean {
    return this.times[a] < this.times[b] ||
      (this.times[a] === this.times[b] && this.lists[a] < this.lists[b]);
  }

  private swap(a: number, b: number): void {
    [this.times[a], this.times[b]] = [this.times[b], this.times[a]];
    [this.lists[a], this.lists[b]] = [this.lists[b], this.lists[a]];
  }

  push(time: number, list: number): void {
    this.times.push(time);
    this.lists.push(list);
    let i = this.times.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(i, parent)) break;
      this.swap(i, parent);
      i = parent;
    }
  }

  /** Removes the smallest entry and answers its list. */
  pop(): number {
    const top = this.lists[0];
    const last = this.times.length - 1;
    this.swap(0, last);
    this.times.pop();
    this.lists.pop();
    for (let i = 0;;) {
      const l = 2 * i + 1, r = l + 1;
      let m = i;
      if (l < last && this.less(l, m)) m = l;
      if (r < last && this.less(r, m)) m = r;
      if (m === i) break;
      this.swap(i, m);
      i = m;
    }
    return top;
  }
}
