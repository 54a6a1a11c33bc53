import assert from "node:assert/strict";
import { mapLimit, mergedSlice, totalOf } from "./merge.ts";

const list = (times: number[]) => ({ length: times.length, time: (i: number) => times[i] });

Deno.test("mergedSlice pages lists merged by time, ties in list order, like a full sort", () => {
  const lists = [[1, 4, 4, 9], [], [2, 4, 10, 11, 12], [0, 3]];
  const all = lists.flatMap((l, li) => l.map((t, i) => ({ t, li, i })))
    .sort((a, b) => a.t - b.t || a.li - b.li || a.i - b.i)
    .map(({ li, i }) => [li, i]);
  assert.equal(totalOf(lists), all.length);
  for (const [skip, take] of [[0, 3], [3, 3], [9, 5], [11, 10], [0, 100]]) {
    assert.deepEqual(mergedSlice(lists.map(list), skip, take), all.slice(skip, skip + take));
  }
  assert.deepEqual(mergedSlice([], 0, 10), []);
});

Deno.test("mergedSlice: any page of random lists with many equal times, as a full sort has it", () => {
  let seed = 7;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let round = 0; round < 30; round++) {
    const lists = Array.from({ length: 1 + Math.floor(rnd() * 6) }, () => {
      let t = 1_700_000_000_000 + Math.floor(rnd() * 5);
      return Array.from({ length: Math.floor(rnd() * 12) }, () => (t += Math.floor(rnd() * 3)));
    });
    const all = lists.flatMap((l, li) => l.map((t, i) => ({ t, li, i })))
      .sort((a, b) => a.t - b.t || a.li - b.li || a.i - b.i)
      .map(({ li, i }) => [li, i]);
    for (let skip = 0; skip <= all.length + 1; skip++) {
      for (const take of [1, 3, 10]) {
        assert.deepEqual(
          mergedSlice(lists.map(list), skip, take),
          all.slice(skip, skip + take),
          `round ${round} skip ${skip} take ${take}: ${JSON.stringify(lists)}`,
        );
      }
    }
  }
});

Deno.test("mapLimit keeps the order and never runs more than the limit at once", async () => {
  let running = 0, peak = 0;
  const out = await mapLimit([5, 1, 4, 2, 3, 0], 2, async (ms, i) => {
    running++;
    peak = Math.max(peak, running);
    await new Promise((r) => setTimeout(r, ms));
    running--;
    return i * 10;
  });
  assert.deepEqual(out, [0, 10, 20, 30, 40, 50]);
  assert.equal(peak, 2);
});
