// Test fixture: @preact/signals island (breaks if a second Preact copy is bundled).
import { useSignal } from "@preact/signals";
import { island } from "../../lib/islands/island.tsx";

function SignalCounter({ start }: { start: number }) {
  const count = useSignal(start);
  return (
    <div class="signal-counter">
      <span id="signal-value">{count}</span>
      <button type="button" id="signal-inc" onClick={() => count.value++}>+</button>
    </div>
  );
}

export default island("_test/SignalCounter", SignalCounter);
