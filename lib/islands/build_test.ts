import assert from "node:assert/strict";
import { join } from "node:path";
import { findIslands } from "../../scripts/build.ts";
import { loadManifest, parseManifest } from "./manifest.ts";

Deno.test("findIslands: nested names, _test excluded unless asked, non-islands skipped", async () => {
  const root = await Deno.makeTempDir({ prefix: "tp-find-" });
  try {
    for (
      const f of [
        "islands/Foo.tsx",
        "islands/map/Live.tsx",
        "islands/map/helpers.ts",
        "islands/map/Live_test.tsx",
        "islands/.hidden/X.tsx",
        "islands/_test/Counter.tsx",
      ]
    ) {
      await Deno.mkdir(join(root, f, ".."), { recursive: true });
      await Deno.writeTextFile(join(root, f), "");
    }
    const names = async (t: boolean) => (await findIslands(root, t)).map((i) => i.name);
    assert.deepEqual(await names(false), ["Foo", "map/Live"]);
    assert.deepEqual(await names(true), ["Foo", "_test/Counter", "map/Live"]);
    assert.equal((await findIslands(root))[0].file, join(root, "islands", "Foo.tsx"));
    assert.deepEqual(await findIslands(join(root, "nowhere")), []);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("loadManifest: reads manifest.json; clear error when missing or malformed", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tp-manifest-" });
  try {
    await assert.rejects(loadManifest(dir), /manifest\.json not found: run `deno task build`/);
    const m = { boot: "/assets/boot-1.js", islands: { Foo: "/assets/Foo-2.js" } };
    await Deno.writeTextFile(join(dir, "manifest.json"), JSON.stringify(m));
    assert.deepEqual(await loadManifest(dir), m);
    await Deno.writeTextFile(join(dir, "manifest.json"), '{"islands":{}}');
    await assert.rejects(loadManifest(dir), /not an island manifest/);
    assert.throws(() => parseManifest({ boot: "/b.js", islands: { A: 1 } }), /not an island/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
