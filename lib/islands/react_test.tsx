import assert from "node:assert/strict";
import { renderToString } from "preact-render-to-string";
import VirtualRows from "../../islands/_test/VirtualRows.tsx";

const root = new URL("../../", import.meta.url);

async function json(path: string) {
  return JSON.parse(await Deno.readTextFile(new URL(path, root)));
}

/**
 * `react` is preact/compat twice over: deno.json maps it for our code, and the linked local
 * packages in lib/islands/compat/ serve npm libraries (an import map does not reach inside npm
 * packages). Both must sit on the one preact the project pins, or the page gets two renderers.
 */
Deno.test("react and react-dom resolve to the project's single preact/compat", async () => {
  const config = await json("deno.json");
  const preact = /^npm:preact@(10\.\d+\.\d+)$/.exec(config.imports.preact)?.[1];
  assert.ok(preact, `deno.json pins preact 10.x: ${config.imports.preact}`);
  assert.deepEqual(
    {
      react: config.imports["react"],
      "react-dom": config.imports["react-dom"],
      "react/jsx-runtime": config.imports["react/jsx-runtime"],
      "react-dom/client": config.imports["react-dom/client"],
    },
    {
      react: `npm:preact@${preact}/compat`,
      "react-dom": `npm:preact@${preact}/compat`,
      "react/jsx-runtime": `npm:preact@${preact}/compat/jsx-runtime`,
      "react-dom/client": `npm:preact@${preact}/compat/client`,
    },
  );
  for (const name of ["react", "react-dom"]) {
    assert.ok(config.links.includes(`./lib/islands/compat/${name}`), `${name} is linked`);
    const pkg = await json(`lib/islands/compat/${name}/package.json`);
    assert.equal(pkg.name, name);
    assert.equal(pkg.dependencies.preact, preact, `${name} shim uses preact ${preact}`);
  }
});

Deno.test("a React library (react-window) renders on the server through preact/compat", () => {
  // With a second React behind react-window its hooks would throw "Invalid hook call".
  const html = renderToString(<VirtualRows count={10000} prefix="Vehicle" />);
  assert.match(html, /<div role="list" id="vrows-list"/);
  assert.match(html, /<button type="button" id="vrow-0">Vehicle 0<\/button>/);
  assert.ok(!html.includes('id="vrow-200"'), "only the rows in view are rendered");
});
