import assert from "node:assert/strict";
import { failureReport, OutputTail } from "./test_failures.ts";
import { runPass } from "./test_passes.ts";

Deno.test("failure report: a real failing deno test run's ERRORS section, without colours", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(
      `${dir}/a_test.ts`,
      `Deno.test("passes", () => {});\nDeno.test("breaks on purpose", () => { throw new Error("boom 42"); });\n`,
    );
    const result = await runPass("demo pass", [`${dir}/a_test.ts`], {});
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
    const result = await runPass("demo pass", [`${dir}/a_test.ts`], {}, true);
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
