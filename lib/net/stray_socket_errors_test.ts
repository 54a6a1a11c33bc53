/**
 * The guard in a process of its own (an uncaught error ends the process it happens in): a reset
 * nobody listens for is logged and the process goes on; any other uncaught error still ends it.
 */
import assert from "node:assert/strict";
import { isStraySocketReset } from "./stray_socket_errors.ts";
import { denoChildArgs } from "../deno_child.ts";

const GUARD = new URL("./stray_socket_errors.ts", import.meta.url).href;

async function runScript(thrown: string): Promise<{ code: number; output: string }> {
  const script = `
    import { guardStraySocketResets } from "${GUARD}";
    guardStraySocketResets();
    setTimeout(() => { throw ${thrown}; }, 10);
    setTimeout(() => { console.log("still running"); Deno.exit(0); }, 200);
  `;
  const out = await new Deno.Command(Deno.execPath(), {
    args: denoChildArgs("eval", "--no-check", script),
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, output: dec.decode(out.stdout) + dec.decode(out.stderr) };
}

Deno.test("stray socket resets: ignored and logged; other uncaught errors stay fatal", async () => {
  const reset = await runScript(
    `Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET", syscall: "read" })`,
  );
  assert.equal(reset.code, 0, reset.output);
  assert.match(reset.output, /still running/);
  assert.match(reset.output, /socket reset nobody listened for was ignored \(ECONNRESET/);

  const other = await runScript(`new TypeError("a bug")`);
  assert.notEqual(other.code, 0, other.output);
  assert.doesNotMatch(other.output, /still running/);
  assert.match(other.output, /a bug/);
});

Deno.test("stray socket resets: only resets on a socket's read or write", () => {
  const err = (code: string, syscall: string) => Object.assign(new Error(code), { code, syscall });
  assert.equal(isStraySocketReset(err("ECONNRESET", "read")), true);
  assert.equal(isStraySocketReset(err("EPIPE", "write")), true);
  assert.equal(isStraySocketReset(err("ECONNREFUSED", "connect")), false);
  assert.equal(isStraySocketReset(err("ENOENT", "open")), false);
  assert.equal(isStraySocketReset(new Error("x")), false);
  assert.equal(isStraySocketReset(null), false);
});
