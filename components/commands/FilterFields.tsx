import { type ReactNode, useState } from "react";

/**
 * A filter bar's state: `draft` as typed and `filter` as applied; `bind(name)` gives a
 * FilterInput / FilterSelect its name, value and change handler.
 */
export function useFilter<F extends { [K in keyof F]: string }>(initial: F) {
  const [draft, setDraft] = useState<F>(initial);
  const [filter, setFilter] = useState<F>(initial);
  const bind = (name: keyof F & string) => ({
    name,
    value: draft[name],
    onValue: (value: string) => setDraft({ ...draft, [name]: value }),
  });
  return { draft, setDraft, filter, setFilter, bind };
}

/** The filter bar: its fields and buttons (`children`); submitting runs `onSearch`. */
export function FilterBar({ onSearch, children }: {
  onSearch: () => void;
  children: ReactNode;
}) {
  return (
    <form
      class="panel cmd-filters"
      onSubmit={(e) => {
        e.preventDefault();
        onSearch();
      }}
    >
      {children}
    </form>
  );
}

/** A filter bar's text (or date-time) input, labelled for screen readers. */
export function FilterInput({ name, label, value, onValue, type }: {
  name: string;
  label: string;
  value: string;
  onValue: (value: string) => void;
  /** Omitted for text, which then shows the label as its placeholder. */
  type?: "datetime-local";
}) {
  return (
    <input
      class="input"
      type={type}
      name={name}
      placeholder={type ? undefined : label}
      aria-label={label}
      value={value}
      onInput={(e) => onValue((e.target as HTMLInputElement).value)}
    />
  );
}

/** A filter bar's select: an "all" choice (empty value) then the given options. */
export function FilterSelect({ name, label, value, onValue, all, options }: {
  name: string;
  label: string;
  value: string;
  onValue: (value: string) => void;
  all: string;
  /** [value, text] pairs. */
  options: [string, string][];
}) {
  return (
    <select
      class="input"
      name={name}
      aria-label={label}
      value={value}
      onChange={(e) => onValue((e.target as HTMLSelectElement).value)}
    >
      <option value="">{all}</option>
      {options.map(([v, text]) => <option key={v} value={v}>{text}</option>)}
    </select>
  );
}
