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
