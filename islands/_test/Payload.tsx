// Test fixture: shows how string and Date props arrive after serialization.
import { useEffect, useState } from "react";
import { island } from "../../lib/islands/island.tsx";

function Payload({ text, when }: { text: string; when: Date }) {
  // Runs only in the browser, so it proves the client received a real Date.
  const [client, setClient] = useState("");
  useEffect(() => {
    setClient(`${when instanceof Date}|${when instanceof Date ? when.toISOString() : ""}`);
  }, []);
  return (
    <div class="payload">
      <pre id="payload-text">{text}</pre>
      <span id="payload-date">{client}</span>
    </div>
  );
}

export default island("_test/Payload", Payload);
