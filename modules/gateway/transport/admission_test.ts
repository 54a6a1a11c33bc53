import assert from "node:assert/strict";
import { Admission } from "./admission.ts";

class Conn {
  device: string | null = null;
  closed = false;
  constructor(readonly name: string) {}
  close() {
    this.closed = true;
  }
}

const admission = (cap: number, slots = 1, slot = 0) =>
  new Admission<Conn>({ counts: new Int32Array(slots), slot, cap });

Deno.test("admission: room up to the cap, then the newest unidentified connection is shed", () => {
  const a = admission(3);
  const [c1, c2, c3, c4, c5] = ["c1", "c2", "c3", "c4", "c5"].map((n) => new Conn(n));
  assert.deepEqual(a.admit(c1), { keep: true });
  assert.deepEqual(a.admit(c2), { keep: true });
  assert.deepEqual(a.admit(c3), { keep: true });
  assert.equal(a.open(), 3);
  // Over the cap: c3 (the newest before c4) goes, c4 stays.
  assert.deepEqual(a.admit(c4), { keep: true, shed: c3 });
  a.release(c3);
  assert.deepEqual(a.admit(c5), { keep: true, shed: c4 });
  a.release(c4);
  assert.equal(a.open(), 3);
});

Deno.test("admission: an identified connection is never shed; with none unidentified the new one is refused", () => {
  const a = admission(2);
  const [d1, d2, u] = ["d1", "d2", "u"].map((n) => new Conn(n));
  a.admit(d1);
  a.admit(d2);
  d1.device = "imei1";
  d2.device = "imei2";
  assert.deepEqual(a.admit(u), { keep: false });
  a.release(u);
  assert.equal(a.open(), 2);
  // One closes: room again.
  a.release(d1);
  assert.deepEqual(a.admit(new Conn("x")), { keep: true });
});

Deno.test("admission: a closed connection is not shed again", () => {
  const a = admission(2);
  const [c1, c2, c3, c4] = ["c1", "c2", "c3", "c4"].map((n) => new Conn(n));
  a.admit(c1);
  a.admit(c2);
  a.release(c2); // closed by the device
  a.admit(c3);
  assert.deepEqual(a.admit(c4), { keep: true, shed: c3 });
});

Deno.test("admission: the cap counts every thread's slot", () => {
  const counts = new Int32Array(new SharedArrayBuffer(8));
  const w0 = new Admission<Conn>({ counts, slot: 0, cap: 2 });
  const w1 = new Admission<Conn>({ counts, slot: 1, cap: 2 });
  const [a, b, c] = ["a", "b", "c"].map((n) => new Conn(n));
  w0.admit(a);
  w1.admit(b);
  // Worker 1 is over the process-wide cap; it sheds its own newest unidentified (b).
  assert.deepEqual(w1.admit(c), { keep: true, shed: b });
  b.device = null;
  w1.release(b);
  assert.equal(w0.open(), 2);
  assert.equal(w1.open(), 2);
});

Deno.test("admission: identified and closed entries are swept, so the list stays bounded", () => {
  const a = admission(100_000);
  for (let i = 0; i < 10_000; i++) {
    const c = new Conn(`c${i}`);
    a.admit(c);
    if (i % 2) a.release(c);
    else c.device = `imei${i}`;
  }
  // deno-lint-ignore no-explicit-any
  const pending = (a as any).pending as Conn[];
  assert.ok(pending.length <= 200, `pending holds ${pending.length}`);
});
