/**
 * The one form toolkit every account and domain dialog uses: form state with client checks,
 * server refusals mapped onto fields, labelled inputs, and a dialog with the shared footer.
 */
import type { TFunction } from "i18next";
import { type ReactNode, useRef, useState } from "react";
import { ApiError, refusedField } from "../../lib/client/api.ts";
import { Field } from "../ui/Field.tsx";
import { Modal } from "../ui/Modal.tsx";
import { type Check, describe, validate } from "./validate.ts";

export type Values = Record<string, string>;

export interface Form<V extends Values> {
  values: V;
  set: (name: keyof V & string, value: string) => void;
  errors: Record<string, string>;
  formError: string;
  busy: boolean;
  /** Field names rendered by this form: a server refusal naming one shows under it. */
  fields: Set<string>;
  /** Checks the values, then runs `action`; refusals land under their field or in the box. */
  submit: (
    rules: Partial<Record<keyof V & string, Check[]>>,
    labels: Partial<Record<keyof V & string, string>>,
    action: () => Promise<void>,
  ) => Promise<void>;
  t: TFunction;
}

/** The field a server refusal names: an illegal parameter, or a business refusal with data.field. */
export function fieldOfRefusal(e: unknown): string | null {
  const named = refusedField(e);
  if (named) return named;
  if (!(e instanceof ApiError)) return null;
  const field = (e.data as { field?: unknown } | null)?.field;
  return typeof field === "string" ? field : null;
}

export function useForm<V extends Values>(initial: V, t: TFunction): Form<V> {
  const [values, setValues] = useState<V>(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState("");
  const [busy, setBusy] = useState(false);
  const fields = useRef(new Set<string>()).current;

  const set = (name: keyof V & string, value: string) => {
    setValues((v) => ({ ...v, [name]: value }));
    if (errors[name]) setErrors(({ [name]: _gone, ...rest }) => rest);
  };

  const submit: Form<V>["submit"] = async (rules, labels, action) => {
    const reasons = validate(values, rules);
    const found = Object.fromEntries(
      Object.entries(reasons).map((
        [f, r],
      ) => [f, describe(t, labels[f as keyof V & string] ?? f, r)]),
    );
    setErrors(found);
    setFormError("");
    if (Object.keys(found).length) return;
    setBusy(true);
    try {
      await action();
    } catch (e) {
      const message = e instanceof Error && e.message ? e.message : t("ui.requestError");
      const field = fieldOfRefusal(e);
      if (field && fields.has(field)) setErrors({ [field]: message });
      else setFormError(message);
    } finally {
      setBusy(false);
    }
  };

  return { values, set, errors, formError, busy, fields, submit, t };
}

type InputKind = "text" | "password" | "email" | "tel" | "date" | "textarea";

interface InputProps<V extends Values> {
  form: Form<V>;
  name: keyof V & string;
  label: string;
  kind?: InputKind;
  required?: boolean;
  hint?: string;
  disabled?: boolean;
  maxLength?: number;
  placeholder?: string;
  /** Spans both columns of a .form-grid. */
  wide?: boolean;
  autoComplete?: string;
}

/** A labelled text-like input bound to one form value. */
export function Input<V extends Values>(p: InputProps<V>) {
  const { form, name, kind = "text" } = p;
  form.fields.add(name);
  const common = {
    name,
    value: form.values[name],
    disabled: p.disabled,
    maxLength: p.maxLength,
    placeholder: p.placeholder,
    "aria-invalid": form.errors[name] ? true : undefined,
    onInput: (e: Event) => form.set(name, (e.target as HTMLInputElement).value),
  };
  return (
    <div class={p.wide ? "span2" : undefined}>
      <Field label={p.label} required={p.required} error={form.errors[name]} hint={p.hint}>
        {kind === "textarea"
          ? <textarea {...common} rows={3} />
          : <input {...common} type={kind} autoComplete={p.autoComplete ?? "off"} />}
      </Field>
    </div>
  );
}

interface SelectProps<V extends Values> {
  form: Form<V>;
  name: keyof V & string;
  label: string;
  options: { value: string; label: string }[];
  required?: boolean;
  hint?: string;
  disabled?: boolean;
  wide?: boolean;
}

export function Select<V extends Values>(p: SelectProps<V>) {
  const { form, name } = p;
  form.fields.add(name);
  return (
    <div class={p.wide ? "span2" : undefined}>
      <Field label={p.label} required={p.required} error={form.errors[name]} hint={p.hint}>
        <select
          name={name}
          value={form.values[name]}
          disabled={p.disabled}
          onChange={(e) => form.set(name, (e.target as HTMLSelectElement).value)}
        >
          {p.options.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
        </select>
      </Field>
    </div>
  );
}

interface ChecksProps<K extends string> {
  legend: string;
  keys: readonly K[];
  label: (key: K) => string;
  checked: Record<K, 0 | 1>;
  onChange: (next: Record<K, 0 | 1>) => void;
  disabled?: boolean;
}

/** A group of 0/1 flags as checkboxes (permissions, virtual-account scope). */
export function FlagChecks<K extends string>(p: ChecksProps<K>) {
  return (
    <fieldset class="flag-checks">
      <legend class="field-label">{p.legend}</legend>
      <div class="checks">
        {p.keys.map((k) => (
          <label key={k}>
            <input
              type="checkbox"
              name={k}
              checked={p.checked[k] === 1}
              disabled={p.disabled}
              onChange={(e) =>
                p.onChange({ ...p.checked, [k]: (e.target as HTMLInputElement).checked ? 1 : 0 })}
            />
            {p.label(k)}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

let formSeq = 0;

interface DialogProps {
  title: string;
  t: TFunction;
  onClose: () => void;
  onSubmit: () => void;
  busy: boolean;
  formError: string;
  submitLabel?: string;
  danger?: boolean;
  width?: number;
  children: ReactNode;
}

/** A Modal holding a form, its refusal box, and Cancel + submit (#dialog-submit) buttons. */
export function FormDialog(p: DialogProps) {
  const id = useRef(`form-${++formSeq}`).current;
  const { t } = p;
  return (
    <Modal
      title={p.title}
      onClose={p.onClose}
      closeLabel={t("ui.close")}
      width={p.width}
      footer={
        <>
          <button type="button" class="btn" onClick={p.onClose}>{t("ui.cancel")}</button>
          <button
            type="submit"
            form={id}
            id="dialog-submit"
            class={`btn ${p.danger ? "btn-danger" : "btn-primary"}`}
            disabled={p.busy}
          >
            {p.busy ? t("ui.loading") : p.submitLabel ?? t("ui.save")}
          </button>
        </>
      }
    >
      <form
        id={id}
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          if (!p.busy) p.onSubmit();
        }}
      >
        {p.formError && <div class="form-error" role="alert">{p.formError}</div>}
        {p.children}
      </form>
    </Modal>
  );
}

/** The new-password pair (password + confirmation) every account dialog asks for. */
export function NewPasswordFields<V extends Values>(
  { form, labels }: { form: Form<V>; labels: { password: string; confirmPassword: string } },
) {
  return (
    <>
      <Input
        form={form}
        name={"password" as keyof V & string}
        kind="password"
        label={labels.password}
        required
        maxLength={50}
        autoComplete="new-password"
        hint={form.t("validation.passwordForm")}
      />
      <Input
        form={form}
        name={"confirmPassword" as keyof V & string}
        kind="password"
        label={labels.confirmPassword}
        required
        maxLength={50}
        autoComplete="new-password"
      />
    </>
  );
}
