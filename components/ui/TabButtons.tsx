import type { ReactNode } from "react";

export interface TabButtonsProps<K extends string> {
  tabs: readonly K[];
  active: K;
  onSelect: (tab: K) => void;
  label: (tab: K) => ReactNode;
  /** Element ids `${idPrefix}${tab}` (tests and labels refer to them). */
  idPrefix?: string;
  /** Class every tab carries besides "active" (the dialogs' "tab" style). */
  tabClass?: string;
}

/** The buttons of a tab strip (role="tab"); the caller keeps the tablist container. */
export function TabButtons<K extends string>(p: TabButtonsProps<K>) {
  return (
    <>
      {p.tabs.map((k) => (
        <button
          key={k}
          type="button"
          role="tab"
          id={p.idPrefix ? `${p.idPrefix}${k}` : undefined}
          aria-selected={p.active === k}
          class={[p.tabClass, p.active === k ? "active" : ""].filter(Boolean).join(" ")}
          onClick={() => p.onSelect(k)}
        >
          {p.label(k)}
        </button>
      ))}
    </>
  );
}
