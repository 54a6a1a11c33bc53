// Test fixture: an island with server-rendered children and two named slots. The body can be
// hidden and shown again (the slot's nodes must survive); "extra" is not rendered until asked
// for (it travels in a <template>).
import { type ReactNode, useState } from "react";
import { island } from "../../lib/islands/island.tsx";

interface Props {
  title: string;
  children?: ReactNode;
  aside?: ReactNode;
  extra?: ReactNode;
}

function Panel({ title, children, aside, extra }: Props) {
  const [open, setOpen] = useState(true);
  const [more, setMore] = useState(false);
  return (
    <section class="panel">
      <h3 id="panel-title">{title}</h3>
      <button type="button" id="panel-toggle" onClick={() => setOpen(!open)}>
        {open ? "hide" : "show"}
      </button>
      <button type="button" id="panel-more" onClick={() => setMore(true)}>more</button>
      <aside id="panel-aside">{aside}</aside>
      {open && <div id="panel-body">{children}</div>}
      {more && <div id="panel-extra">{extra}</div>}
    </section>
  );
}

export default island("_test/Panel", Panel, { slots: ["aside", "extra"] });
