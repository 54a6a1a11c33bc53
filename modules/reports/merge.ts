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

/** A list sorted by time, seen through its length and the time of each entry. */
export interface SortedList {
  readonly length: number;
  time(index: number): number;
}

/**
 * The entries skip..skip+take-1 of the lists merged by time (ties: the earlier list first,
 * i.e. the request's device order), as [list, index] pairs.
 */
export function mergedSlice(
  lists: readonly SortedList[],
  skip: number,
  take: number,
): Array<[number, number]> {
  const heap = new MinHeap();
  const pos = lists.map(() => 0);
  lists.forEach((l, li) => l.length && heap.push(l.time(0), li));
  const out: Array<[number, number]> = [];
  for (let n = 0; heap.size && n < skip + take; n++) {
    const li = heap.pop();
    const i = pos[li]++;
    if (n >= skip) out.push([li, i]);
    if (pos[li] < lists[li].length) heap.push(lists[li].time(pos[li]), li);
  }
  return out;
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
