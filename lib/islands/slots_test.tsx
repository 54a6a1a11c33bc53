import assert from "node:assert/strict";
import type { ComponentChildren, VNode } from "preact";
import { renderToString } from "preact-render-to-string";
import Counter from "../../islands/_test/Counter.tsx";
import Panel from "../../islands/_test/Panel.tsx";
import { island } from "./island.tsx";
import type { IslandManifest } from "./manifest.ts";
import { renderPage } from "./render.tsx";
import { deserialize } from "./serialize.ts";

const manifest: IslandManifest = {
  boot: "/assets/boot-00000000.js",
  islands: {
    "_test/Counter": "/assets/_test_Counter-11111111.js",
    "_test/Panel": "/assets/_test_Panel-22222222.js",
    Twice: "/assets/Twice-33333333.js",
  },
};

function page(body: VNode): string {
  return renderPage(body, { title: "T", lang: "en", manifest });
}

function propsData(html: string): { islands: Record<string, string>; props: unknown[] } {
  const m = html.match(/<script type="application\/json" id="__tp_props"[^>]*>(.*?)<\/script>/s);
  assert.ok(m, "props script missing");
  return deserialize(m[1]);
}

Deno.test("slots: children and named slots render on the server, in place, not in props", () => {
  const html = page(
    <Panel title="P" aside={<em id="aside-em">side</em>}>
      <p id="body-p">
        static <b>bold</b>
      </p>
    </Panel>,
  );
  assert.match(
    html,
    /<aside id="panel-aside"><tp-slot data-slot="aside" data-for="0" style="display:contents"><em id="aside-em">side<\/em><\/tp-slot><\/aside>/,
  );
  assert.match(
    html,
    /<div id="panel-body"><tp-slot data-slot="children" data-for="0" style="display:contents"><p id="body-p">static <b>bold<\/b><\/p><\/tp-slot><\/div>/,
  );
  // Only data crosses as props; the slots are the page's HTML.
  assert.deepEqual(propsData(html).props, [{ title: "P" }]);
  assert.ok(!html.includes("<template"), "every slot was rendered in place");
});

Deno.test("slots: an island inside a slot is a top-level island with its own props", () => {
  const html = page(
    <Panel title="P">
      <Counter start={4} label="in" />
    </Panel>,
  );
  assert.match(
    html,
    /<tp-slot data-slot="children" data-for="0" style="display:contents"><tp-island data-island="_test\/Counter" data-props="1" style="display:contents"><div class="counter"><span id="in-value">4<\/span>/,
  );
  const data = propsData(html);
  assert.deepEqual(data.props, [{ title: "P" }, { start: 4, label: "in" }]);
  assert.deepEqual(Object.keys(data.islands), ["_test/Counter", "_test/Panel"]);
});

Deno.test("slots: a slot the island does not render travels in a template after its markup", () => {
  const html = page(
    <Panel title="P" extra={<Counter start={40} label="extra" />}>
      text child
    </Panel>,
  );
  assert.match(
    html,
    /<\/section><template data-slot="extra" data-for="0"><tp-island data-island="_test\/Counter" data-props="1" style="display:contents"><div class="counter"><span id="extra-value">40<\/span>.*<\/template><\/tp-island>/s,
  );
  // A plain string child is a slot too (server-rendered, not serialized).
  assert.match(
    html,
    /<tp-slot data-slot="children" data-for="0" style="display:contents">text child<\/tp-slot>/,
  );
  assert.deepEqual(propsData(html).props, [{ title: "P" }, { start: 40, label: "extra" }]);
});

Deno.test("slots: empty slots are left out; undeclared JSX props are still refused", () => {
  const html = page(<Panel title="P" aside={null} extra={false}>{undefined}</Panel>);
  assert.ok(!html.includes("<tp-slot") && !html.includes("<template"), html);
  assert.match(html, /<aside id="panel-aside"><\/aside>/);
  const Bad = island("Bad", (_: { icon: unknown; children?: unknown }) => <i />);
  assert.throws(() => page(<Bad icon={<b />}>ok</Bad>), /prop "icon" is JSX.*declare it/);
});

Deno.test("slots: rendering one slot twice is an error naming the island and slot", () => {
  const Twice = island("Twice", ({ children }: { children?: ComponentChildren }) => (
    <div>
      {children}
      {children}
    </div>
  ));
  assert.throws(() => page(<Twice>x</Twice>), /Island "Twice": slot "children" is rendered twice/);
});

Deno.test("slots: outside renderPage (and inside another island) children are plain props", () => {
  const html = renderToString(
    <Panel title="P">
      <i>kid</i>
    </Panel>,
  );
  assert.ok(!html.includes("tp-slot"));
  assert.match(html, /<div id="panel-body"><i>kid<\/i><\/div>/);
});
