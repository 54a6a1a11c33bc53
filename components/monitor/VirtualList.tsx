/** A fixed-row-height list that renders only the rows in view (10,000 devices stay fast). */
import { type ReactNode, useLayoutEffect, useRef, useState } from "react";

export function VirtualList<T>(
  { items, rowHeight, render, label }: {
    items: T[];
    rowHeight: number;
    render: (item: T, index: number) => ReactNode;
    label: string;
  },
) {
  const ref = useRef<HTMLDivElement>(null);
  const [top, setTop] = useState(0);
  const [height, setHeight] = useState(600);
  useLayoutEffect(() => {
    const el = ref.current!;
    const ro = new ResizeObserver(() => setHeight(el.clientHeight || 600));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  const first = Math.max(0, Math.floor(top / rowHeight) - 5);
  const last = Math.min(items.length, Math.ceil((top + height) / rowHeight) + 5);
  return (
    <div
      ref={ref}
      class="mon-vlist"
      role="list"
      aria-label={label}
      onScroll={(e) => setTop((e.currentTarget as HTMLDivElement).scrollTop)}
    >
      <div style={{ height: `${items.length * rowHeight}px`, position: "relative" }}>
        <div style={{ transform: `translateY(${first * rowHeight}px)` }}>
          {items.slice(first, last).map((it, k) => render(it, first + k))}
        </div>
      </div>
    </div>
  );
}
