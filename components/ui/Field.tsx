import type { ReactNode } from "react";

interface Props {
  label: string;
  error?: string | null;
  required?: boolean;
  hint?: string;
  children: ReactNode;
}

/** A labelled form control with its validation message underneath. */
export function Field({ label, error, required, hint, children }: Props) {
  return (
    <label class={`field${error ? " has-error" : ""}`}>
      <span class="field-label">{required && <i class="req">*</i>}{label}</span>
      {children}
      {error
        ? <span class="field-error" role="alert">{error}</span>
        : hint && <span class="field-hint">{hint}</span>}
    </label>
  );
}
