import assert from "node:assert/strict";
import { failureReport, OutputTail } from "./test_failures.ts";
import { type PassOutput, runPass } from "./test_passes.ts";

/** Keeps the demo passes' output out of the test run's own (a "FAILED" line there misleads). */
function captured(): PassOutput & { text: () => string } {
  const chunks: Uint8Array[] = [];
  const writer = { write: (p: Uint8Array) => (chunks.push(p.slice()), Promise.resolve(p.length)) };
  const text = () => chunks.map((c) => new TextDecoder().decode(c)).join("");
  return { stdout: writer, stderr: writer, text };
}

Deno.test("failure report: a real failing deno test run's ERRORS section, without colours", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(
      `${dir}/a_test.ts`,
      `Deno.test("passes", () => {});\nDeno.test("breaks on purpose", () => { throw new Error("boom 42"); });\n`,
    );
    const out = captured();
    const result = await runPass("demo pass", [`${dir}/a_test.ts`], {}, false, out);
    assert.match(out.text(), /=== demo pass ===[\s\S]*breaks on purpose \.\.\./, "streamed");
    assert.notEqual(result.code, 0);
    const report = result.failures ?? "";
    assert.match(report, /^ ERRORS /);
    assert.match(report, /breaks on purpose => .*a_test\.ts:2/);
    assert.match(report, /boom 42/);
    assert.match(report, / FAILURES /);
    assert.ok(!report.includes("\x1b["), "no colour codes");
    assert.doesNotMatch(report, /passes \.\.\./, "the passing test is not repeated");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("failure report: a passing pass has none", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/a_test.ts`, `Deno.test("passes", () => {});\n`);
    const out = captured();
    const result = await runPass("demo pass", [`${dir}/a_test.ts`], {}, true, out);
    assert.match(out.text(), /=== demo pass ===[\s\S]*held until it ended[\s\S]*passes \.\.\./);
    assert.equal(result.code, 0);
    assert.equal(result.failures, undefined);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("failure report: without an ERRORS heading (the run broke), its last lines", () => {
  const lines = Array.from({ length: 200 }, (_, i) => `line ${i}`);
  const report = failureReport(lines.join("\n"));
  assert.ok(report.startsWith("line 120") && report.endsWith("line 199"));
});

Deno.test("output tail: keeps the last characters only, across chunk boundaries", () => {
  const tail = new OutputTail(10);
  const bytes = new TextEncoder().encode("héllo wörld, and more text");
  for (const b of bytes) tail.add(new Uint8Array([b]));
  assert.equal(tail.text, " more text");
});
