/**
 * A fixed-row-height list that renders only the rows in view (10,000 devices stay fast).
 * Built on react-window (a published React library, through preact/compat): it measures the
 * viewport with a ResizeObserver, positions rows absolutely and renders a few rows of overscan.
 */
import type { ReactNode } from "react";
import { List, type RowComponentProps } from "react-window";

interface RowData<T> {
  items: T[];
  render: (item: T, index: number) => ReactNode;
}

// The row element itself (role="listitem" and its height) comes from `render`; this wrapper
// only carries react-window's positioning style.
function Row<T>({ index, style, items, render }: RowComponentProps<RowData<T>>) {
  return <div style={style}>{render(items[index], index)}</div>;
}

export function VirtualList<T>(
  { items, rowHeight, render, label }: {
    items: T[];
    rowHeight: number;
    render: (item: T, index: number) => ReactNode;
    label: string;
  },
) {
  return (
    <List
      className="mon-vlist"
      aria-label={label}
      rowComponent={Row<T>}
      rowCount={items.length}
      rowHeight={rowHeight}
      rowProps={{ items, render }}
      overscanCount={5}
    />
  );
}
