import assert from "node:assert/strict";
import { testApp } from "../../tests/helpers/harness.ts";
import { INSTRUCTIONS, instructionsFor } from "./catalogue/index.ts";
import { MODEL_INSTRUCTIONS } from "./catalogue/models.ts";
import { dangerOf, startInstruction } from "./model.ts";

Deno.test("catalogue: engine cut immobilises and factory reset erases; the rest are not dangerous", () => {
  assert.equal(dangerOf("engineCut"), "immobilises");
  assert.equal(dangerOf("factoryReset"), "erases");
  for (const code of Object.keys(INSTRUCTIONS)) {
    if (code === "engineCut" || code === "factoryReset") continue;
    assert.equal(dangerOf(code), null, code);
  }
  assert.equal(dangerOf("noSuchCode"), null);
});

Deno.test("pickers start on a harmless instruction for every model, never a dangerous one", () => {
  for (const mcType of Object.keys(MODEL_INSTRUCTIONS)) {
    const offered = instructionsFor(mcType);
    const first = startInstruction(offered);
    assert.ok(first, `${mcType} offers a harmless instruction to start on`);
    assert.equal(dangerOf(first.code), null, mcType);
  }
  // GT06 trackers list engineCut first in catalogue order; the picker starts on Locate.
  assert.equal(instructionsFor("GT06N")[0].code, "engineCut");
  assert.equal(startInstruction(instructionsFor("GT06N"))?.code, "locate");
  // H02 has no query: a setting, not "restore engine".
  assert.equal(startInstruction(instructionsFor("H02"))?.code, "reportInterval");
  assert.equal(startInstruction(Object.values(INSTRUCTIONS))?.code, "locate");
  assert.equal(startInstruction([INSTRUCTIONS.engineCut, INSTRUCTIONS.factoryReset]), null);
});

Deno.test("the catalogue API tells the console which instructions are dangerous", async () => {
  const app = await testApp();
  try {
    const token = await app.adminToken();
    const cat = (await app.call("/v3/new/command/catalogue", undefined, token)).json.data;
    const byCode = new Map(
      (cat.instructions as { code: string; danger?: string }[]).map((i) => [i.code, i]),
    );
    assert.equal(byCode.get("engineCut")?.danger, "immobilises");
    assert.equal(byCode.get("factoryReset")?.danger, "erases");
    assert.equal(byCode.get("locate")?.danger, undefined);
    const offered = (await app.call("/v3/new/command/instructions?mcType=GT06N", undefined, token))
      .json.data.instructions as { code: string; danger?: string; passwordRequired: boolean }[];
    const cut = offered.find((i) => i.code === "engineCut")!;
    assert.equal(cut.danger, "immobilises");
    assert.equal(cut.passwordRequired, true);
  } finally {
    await app.close();
  }
});
