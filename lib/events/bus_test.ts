import assert from "node:assert/strict";
import { EventBus } from "./bus.ts";

type Ev =
  | { type: "a"; n: number }
  | { type: "b"; s: string };

Deno.test("event bus: handlers by type, in subscription order; a failing one disturbs no other", async () => {
  const bus = new EventBus<Ev>();
  const seen: string[] = [];
  const errors: unknown[] = [];
  const log = console.error;
  console.error = (...a: unknown[]) => errors.push(a);
  try {
    bus.on("a", (e) => void seen.push(`first ${e.n}`), { name: "first", durable: true });
    bus.on("a", () => {
      throw new Error("boom");
    }, { name: "thrower", durable: false });
    bus.on("a", () => Promise.reject(new Error("later")), { name: "rejecter", durable: false });
    const off = bus.on("a", (e) => void seen.push(`last ${e.n}`), { name: "last", durable: false });
    bus.on("b", (e) => void seen.push(`b ${e.s}`), { name: "b", durable: true });
    bus.publish({ type: "a", n: 1 });
    bus.publish({ type: "b", s: "x" });
    off();
    bus.publish({ type: "a", n: 2 });
    await new Promise((r) => setTimeout(r, 0));
    assert.deepEqual(seen, ["first 1", "last 1", "b x", "first 2"]);
    assert.equal(errors.length, 4, "two throws and two rejections logged");
    assert.deepEqual(bus.subscriptions().map((s) => `${s.type}:${s.name}:${s.durable}`), [
      "a:first:true",
      "a:thrower:false",
      "a:rejecter:false",
      "b:b:true",
    ]);
  } finally {
    console.error = log;
  }
});

Deno.test("event bus: deliver awaits each handler in turn", async () => {
  const bus = new EventBus<Ev>();
  const seen: string[] = [];
  bus.on("b", async (e) => {
    await new Promise((r) => setTimeout(r, 10));
    seen.push(`slow ${e.s}`);
  }, { name: "slow", durable: true });
  bus.on("b", (e) => void seen.push(`quick ${e.s}`), { name: "quick", durable: true });
  await bus.deliver({ type: "b", s: "y" });
  assert.deepEqual(seen, ["slow y", "quick y"]);
});
