import assert from "node:assert/strict";
import type { VNode } from "preact";
import { renderToString } from "preact-render-to-string";
import Counter from "../../islands/_test/Counter.tsx";
import Outer from "../../islands/_test/Outer.tsx";
import Payload from "../../islands/_test/Payload.tsx";
import SignalCounter from "../../islands/_test/SignalCounter.tsx";
import { island, islandInfo } from "./island.tsx";
import type { IslandManifest } from "./manifest.ts";
import { renderPage } from "./render.tsx";
import { deserialize } from "./serialize.ts";

const manifest: IslandManifest = {
  boot: "/assets/boot-00000000.js",
  islands: {
    "_test/Counter": "/assets/_test_Counter-11111111.js",
    "_test/SignalCounter": "/assets/_test_SignalCounter-22222222.js",
    "_test/Outer": "/assets/_test_Outer-33333333.js",
    "_test/Inner": "/assets/_test_Inner-44444444.js",
    "_test/Payload": "/assets/_test_Payload-55555555.js",
  },
  preload: {
    "/assets/_test_Counter-11111111.js": ["/assets/chunk-AAAAAAAA.js"],
  },
};

function page(body: VNode, extra: Partial<Parameters<typeof renderPage>[1]> = {}) {
  return renderPage(body, { title: "T", lang: "en", manifest, ...extra });
}

/** The JSON script's parsed content. */
function propsData(html: string): { islands: Record<string, string>; props: unknown[] } {
  const m = html.match(/<script type="application\/json" id="__tp_props"[^>]*>(.*?)<\/script>/s);
  assert.ok(m, "props script missing");
  return deserialize(m[1]);
}

Deno.test("renderPage: document shell, markers and props", () => {
  const html = page(
    <main>
      <Counter start={3} label="a" />
      <SignalCounter start={7} />
    </main>,
    { bodyAttrs: { class: "app", "data-x": '"q"' } },
  );
  assert.ok(html.startsWith('<!DOCTYPE html><html lang="en">'));
  assert.match(html, /<title>T<\/title>/);
  assert.match(html, /<body class="app" data-x="&quot;q&quot;">/);
  assert.match(
    html,
    /<tp-island data-island="_test\/Counter" data-props="0" style="display:contents"><div class="counter"><span id="a-value">3<\/span>/,
  );
  assert.match(html, /<tp-island data-island="_test\/SignalCounter" data-props="1"/);
  assert.match(html, /<span id="signal-value">7<\/span>/);
  const data = propsData(html);
  assert.deepEqual(data.props, [{ start: 3, label: "a" }, { start: 7 }]);
  assert.deepEqual(data.islands, {
    "_test/Counter": manifest.islands["_test/Counter"],
    "_test/SignalCounter": manifest.islands["_test/SignalCounter"],
  });
});

Deno.test("renderPage: scripts only for the islands used", () => {
  const html = page(<Counter start={0} label="x" />);
  assert.match(html, /<script type="module" src="\/assets\/boot-00000000\.js"><\/script>/);
  assert.match(html, /<link rel="modulepreload" href="\/assets\/_test_Counter-11111111\.js">/);
  assert.match(html, /<link rel="modulepreload" href="\/assets\/chunk-AAAAAAAA\.js">/);
  assert.ok(!html.includes("SignalCounter"));
  assert.ok(!html.includes("Outer"));
  assert.equal(html.match(/<script/g)?.length, 2);
});

Deno.test("renderPage: no islands means no scripts at all", () => {
  const html = page(<p>static</p>);
  assert.ok(!html.includes("<script"));
  assert.ok(!html.includes("modulepreload"));
  assert.match(html, /<body><p>static<\/p><\/body><\/html>$/);
});

Deno.test("renderPage: nested island is part of the outer island's props-less tree", () => {
  const html = page(<Outer title="T1" />);
  assert.match(
    html,
    /<tp-island data-island="_test\/Outer" data-props="0" style="display:contents"><section class="outer">.*<tp-island data-island="_test\/Inner" style="display:contents"><p class="inner"><span id="inner-greeting">hello from T1<\/span>/s,
  );
  const data = propsData(html);
  assert.deepEqual(data.props, [{ title: "T1" }]);
  // Only the outer module is loaded; it bundles Inner.
  assert.deepEqual(Object.keys(data.islands), ["_test/Outer"]);
});

Deno.test("renderPage: XSS payload in props stays inside the JSON script", () => {
  const xss = "</script><script>window.__xss=1</script>";
  const when = new Date("2025-01-02T03:04:05.000Z");
  const html = page(<Payload text={xss} when={when} />);
  // The only raw script tags are ours.
  assert.equal(html.match(/<script/g)?.length, 2);
  assert.ok(!html.includes("<script>window.__xss"));
  const data = propsData(html);
  const props = data.props[0] as { text: string; when: Date };
  assert.equal(props.text, xss);
  assert.ok(props.when instanceof Date);
  assert.equal(props.when.toISOString(), when.toISOString());
});

Deno.test("renderPage: function props are rejected with a clear error", () => {
  const Bad = island("Bad", (_: { onClick: () => void }) => <button type="button" />);
  const withBad = { ...manifest, islands: { ...manifest.islands, Bad: "/assets/Bad-1.js" } };
  assert.throws(
    () => renderPage(<Bad onClick={() => {}} />, { title: "", lang: "en", manifest: withBad }),
    /Island "Bad": prop "onClick" is a function/,
  );
  // The failed render left no context behind.
  assert.match(page(<Counter start={1} label="z" />), /data-props="0"/);
});

Deno.test("renderPage: JSX props are rejected", () => {
  const Bad = island("BadJsx", (_: { icon: unknown }) => <i />);
  assert.throws(() => page(<Bad icon={<b />} />), /prop "icon" is JSX/);
});

Deno.test("renderPage: island missing from the manifest is an error", () => {
  const Unknown = island("NotBuilt", () => <i />);
  assert.throws(() => page(<Unknown />), /"NotBuilt" is not in the build manifest/);
});

Deno.test("renderPage: nonce on every script and escaped title/lang/head", () => {
  const html = page(<Counter start={0} label="n" />, {
    nonce: "abc123",
    title: "<x>",
    lang: 'e"n',
    head: <meta name="k" content="v" />,
  });
  for (const tag of html.match(/<script[^>]*>/g) ?? []) assert.match(tag, /nonce="abc123"/);
  assert.match(html, /<title>&lt;x&gt;<\/title>/);
  assert.match(html, /<html lang="e&quot;n">/);
  assert.match(html, /<meta name="k" content="v"\/?><link rel="modulepreload"/);
  assert.match(page(<p />, { head: '<link rel="icon" href="/i.svg">' }), /<link rel="icon"/);
});

Deno.test("island: renderToString outside renderPage renders markup without props", () => {
  const html = renderToString(<Counter start={2} label="s" />);
  assert.equal(
    html,
    '<tp-island data-island="_test/Counter" style="display:contents"><div class="counter">' +
      '<span id="s-value">2</span><button type="button" id="s-inc">+</button></div></tp-island>',
  );
});

Deno.test("island: exposes name and implementation; validates names", () => {
  const info = islandInfo(Counter);
  assert.equal(info?.name, "_test/Counter");
  assert.equal(typeof info?.Component, "function");
  assert.equal(islandInfo(() => null), null);
  assert.throws(() => island("../x", () => null), /invalid name/);
});
