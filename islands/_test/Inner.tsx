// Test fixture: island rendered inside another island.
import { useState } from "react";
import { island } from "../../lib/islands/island.tsx";

function Inner({ greeting }: { greeting: string }) {
  const [on, setOn] = useState(false);
  return (
    <p class="inner">
      <span id="inner-greeting">{greeting}</span>
      <button type="button" id="inner-toggle" onClick={() => setOn(!on)}>
        {on ? "on" : "off"}
      </button>
    </p>
  );
}

export default island("_test/Inner", Inner);
