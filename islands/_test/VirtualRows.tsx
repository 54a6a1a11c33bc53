// Test fixture: a published React library (react-window) inside an island, through
// preact/compat. The server renders the first rows; the client hydrates and scrolls.
import { useState } from "react";
import { List, type RowComponentProps } from "react-window";
import { island } from "../../lib/islands/island.tsx";

interface RowProps {
  prefix: string;
  picked: number | null;
  pick: (index: number) => void;
}

function Row(
  { index, style, ariaAttributes, prefix, picked, pick }: RowComponentProps<RowProps>,
) {
  return (
    <div {...ariaAttributes} style={style} class="vrow" data-index={index}>
      <button type="button" id={`vrow-${index}`} onClick={() => pick(index)}>
        {prefix} {index}
        {picked === index ? " ✓" : ""}
      </button>
    </div>
  );
}

function VirtualRows({ count, prefix }: { count: number; prefix: string }) {
  const [picked, setPicked] = useState<number | null>(null);
  return (
    <div class="vrows">
      <span id="vrows-picked">{picked ?? "none"}</span>
      <List
        id="vrows-list"
        rowComponent={Row}
        rowCount={count}
        rowHeight={20}
        rowProps={{ prefix, picked, pick: setPicked }}
        defaultHeight={200}
        overscanCount={2}
        style={{ height: "200px" }}
      />
    </div>
  );
}

export default island("_test/VirtualRows", VirtualRows);
