/** A labelled checkbox of the alert forms. */
export function CheckBox({ name, label, checked, onChange, class: cls }: {
  name: string;
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  class?: string;
}) {
  return (
    <label class={`check${cls ? ` ${cls}` : ""}`}>
      <input
        type="checkbox"
        name={name}
        checked={checked}
        onChange={(e) => onChange((e.target as HTMLInputElement).checked)}
      />
      {label}
    </label>
  );
}
