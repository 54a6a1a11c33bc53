import type { TFunction } from "i18next";
import { useState } from "react";
import { ApiError } from "../../lib/client/api.ts";
import { Field } from "../ui/Field.tsx";
import { fieldOfRefusal } from "../accounts/form.tsx";

/** One input of a details tab. Numbers are sent as numbers, empty ones as null. */
export interface Spec {
  name: string;
  kind?: "text" | "number" | "date" | "select" | "textarea";
  max?: number;
  required?: boolean;
  options?: { value: string; label: string }[];
  wide?: boolean;
  hint?: string;
}

export type Values = Record<string, string>;

/**
 * State of one tab's form: string values, per-field messages (client checks and server
 * refusals naming a field, nested paths reduced to their last name) and a form-level message.
 */
export function useTabForm(initial: Values, t: TFunction) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState("");
  const [busy, setBusy] = useState(false);
  const set = (name: string, v: string) => {
    setValues((x) => ({ ...x, [name]: v }));
    setErrors(({ [name]: _gone, ...rest }) => rest);
  };
  /** Runs the save; refusals land under their field or in the form's message box. */
  const run = async (specs: Spec[], action: () => Promise<void>): Promise<ApiError | null> => {
    const found: Record<string, string> = {};
    for (const s of specs) {
      const v = (values[s.name] ?? "").trim();
      if (s.required && !v) found[s.name] = t("validation.required");
      else if (s.max && v.length > s.max) found[s.name] = t("validation.tooLong", { max: s.max });
      else if (s.kind === "number" && v && isNaN(Number(v))) {
        found[s.name] = t("validation.wrongType", { expected: "number" });
      }
    }
    setErrors(found);
    setFormError("");
    if (Object.keys(found).length) return null;
    setBusy(true);
    try {
      await action();
      return null;
    } catch (e) {
      const msg = e instanceof Error && e.message ? e.message : t("ui.requestError");
      const field = fieldOfRefusal(e)?.split(".").pop();
      if (field && specs.some((s) => s.name === field)) setErrors({ [field]: msg });
      else setFormError(msg);
      return e instanceof ApiError ? e : null;
    } finally {
      setBusy(false);
    }
  };
  return { values, set, errors, setErrors, formError, setFormError, busy, run };
}
export type TabForm = ReturnType<typeof useTabForm>;

/** The typed value of a spec'd field for the API. */
export function typed(s: Spec, raw: string | undefined): string | number | null {
  const v = (raw ?? "").trim();
  if (s.kind === "number") return v === "" ? null : Number(v);
  if (s.kind === "date") return v === "" ? null : v;
  return v;
}

export function typedAll(specs: Spec[], values: Values): Record<string, unknown> {
  return Object.fromEntries(specs.map((s) => [s.name, typed(s, values[s.name])]));
}

export function toValues(o: Record<string, unknown>): Values {
  return Object.fromEntries(
    Object.entries(o).map(([k, v]) => [k, v === null || v === undefined ? "" : String(v)]),
  );
}

interface GridProps {
  form: TabForm;
  specs: Spec[];
  label: (name: string) => string;
  readOnly: boolean;
  /** Prefix for element ids (e.g. "customer" → #customer-driverName). */
  idPrefix: string;
}

/** Labelled inputs of a tab in the two-column form grid. */
export function FieldGrid({ form, specs, label, readOnly, idPrefix }: GridProps) {
  return (
    <div class="form-grid">
      {specs.map((s) => {
        const common = {
          id: `${idPrefix}-${s.name}`,
          name: s.name,
          value: form.values[s.name] ?? "",
          disabled: readOnly,
          maxLength: s.max,
          "aria-invalid": form.errors[s.name] ? true : undefined,
          onInput: (e: Event) => form.set(s.name, (e.target as HTMLInputElement).value),
        };
        return (
          <div key={s.name} class={s.wide ? "span2" : undefined}>
            <Field
              label={label(s.name)}
              required={s.required}
              error={form.errors[s.name]}
              hint={s.hint}
            >
              {s.kind === "select"
                ? (
                  <select
                    {...common}
                    onChange={(e) => form.set(s.name, (e.target as HTMLSelectElement).value)}
                  >
                    {s.options!.map((o) => (
                      <option key={o.value} value={o.value}>{o.label}</option>
                    ))}
                  </select>
                )
                : s.kind === "textarea"
                ? <textarea {...common} rows={3} />
                : (
                  <input
                    {...common}
                    type={s.kind === "number" ? "number" : s.kind === "date" ? "date" : "text"}
                    step={s.kind === "number" ? "any" : undefined}
                    autoComplete="off"
                  />
                )}
            </Field>
          </div>
        );
      })}
    </div>
  );
}

interface FooterProps {
  t: TFunction;
  form: TabForm;
  readOnly: boolean;
  onSave: () => void;
}

export function TabFooter({ t, form, readOnly, onSave }: FooterProps) {
  if (readOnly) return <p class="dialog-note">{t("devices.detail.readOnly")}</p>;
  return (
    <div class="tab-foot">
      {form.formError && <div class="form-error" role="alert">{form.formError}</div>}
      <button
        type="button"
        class="btn btn-primary tab-save"
        disabled={form.busy}
        onClick={onSave}
      >
        {form.busy ? t("ui.loading") : t("devices.detail.save")}
      </button>
    </div>
  );
}
