// Test fixture: island whose output contains another island.
import { useState } from "react";
import { island } from "../../lib/islands/island.tsx";
import Inner from "./Inner.tsx";

function Outer({ title }: { title: string }) {
  const [clicks, setClicks] = useState(0);
  return (
    <section class="outer">
      <h2>{title}</h2>
      <button type="button" id="outer-inc" onClick={() => setClicks(clicks + 1)}>
        {clicks}
      </button>
      <Inner greeting={`hello from ${title}`} />
    </section>
  );
}

export default island("_test/Outer", Outer);
