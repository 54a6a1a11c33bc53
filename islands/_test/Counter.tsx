// Test fixture: useState island.
import { useState } from "react";
import { island } from "../../lib/islands/island.tsx";

function Counter({ start, label }: { start: number; label: string }) {
  const [count, setCount] = useState(start);
  return (
    <div class="counter">
      <span id={`${label}-value`}>{count}</span>
      <button type="button" id={`${label}-inc`} onClick={() => setCount(count + 1)}>+</button>
    </div>
  );
}

export default island("_test/Counter", Counter);
