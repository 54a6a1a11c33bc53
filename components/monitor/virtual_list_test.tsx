import assert from "node:assert/strict";
import { renderToString } from "preact-render-to-string";
import { VirtualList } from "./VirtualList.tsx";

Deno.test("VirtualList (react-window) renders only the rows in view of a 10,000-row list", () => {
  const items = Array.from({ length: 10_000 }, (_, i) => `dev-${i}`);
  const html = renderToString(
    <VirtualList
      items={items}
      rowHeight={58}
      label="Devices"
      render={(item) => <div role="listitem" class="mon-row" data-imei={item}>{item}</div>}
    />,
  );
  const outer = html.slice(0, html.indexOf(">") + 1);
  for (const attr of ['role="list"', 'aria-label="Devices"', 'class="mon-vlist"']) {
    assert.ok(outer.includes(attr), `${attr} on ${outer}`);
  }
  assert.match(html, /data-imei="dev-0"/);
  const rows = html.match(/class="mon-row"/g)?.length ?? 0;
  assert.ok(rows > 0 && rows < 40, `${rows} rows rendered`);
  assert.ok(!html.includes('data-imei="dev-9999"'));
});
