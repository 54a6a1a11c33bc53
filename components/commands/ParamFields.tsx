import { fieldMsg } from "./format.ts";
import type { TFunction } from "i18next";
import { type ReactNode, useState } from "react";
import { Field } from "../ui/Field.tsx";
import type { InstructionDef, ParamDef } from "./types.ts";

export type ParamValues = Record<string, unknown>;

/** Starting values of an instruction's parameters. */
export function defaultParams(params: ParamDef[]): ParamValues {
  return Object.fromEntries(params.map((p) => {
    if (p.type === "phones") return [p.key, Array(p.max).fill("")];
    if ("default" in p && p.default !== undefined) return [p.key, p.default];
    return [p.key, ""];
  }));
}

/** Client-side check mirroring the server's rules, so mistakes show before sending. */
export function checkParams(t: TFunction, params: ParamDef[], v: ParamValues) {
  const errors: Record<string, string> = {};
  for (const p of params) {
    const raw = v[p.key];
    if (p.type === "int" || p.type === "number") {
      const n = Number(raw);
      if (raw === "" || raw === undefined || isNaN(n)) {
        errors[p.key] = fieldMsg(t, "validation.required");
      } else if (p.type === "int" && !Number.isInteger(n)) {
        errors[p.key] = fieldMsg(t, "validation.invalid");
      } else if (n < p.min) errors[p.key] = fieldMsg(t, "validation.tooSmall", { min: p.min });
      else if (n > p.max) errors[p.key] = fieldMsg(t, "validation.tooBig", { max: p.max });
    } else if (p.type === "phones") {
      const list = (raw as string[]).map((x) => x.trim());
      if (!list.some(Boolean)) errors[p.key] = fieldMsg(t, "validation.required");
      else if (list.some((x) => x && !/^\+?\d{3,20}$/.test(x))) {
        errors[p.key] = fieldMsg(t, "validation.phoneForm");
      }
    } else if (p.type === "text") {
      const s = String(raw ?? "").trim();
      if (!s) errors[p.key] = fieldMsg(t, "validation.required");
      else if (s.length > p.max) errors[p.key] = fieldMsg(t, "validation.tooLong", { max: p.max });
      else if (!/^[\x20-\x7e]*$/.test(s)) errors[p.key] = fieldMsg(t, "validation.asciiOnly");
    }
  }
  return errors;
}

/** Values as the API wants them (numbers as numbers). */
export function paramsBody(params: ParamDef[], v: ParamValues): ParamValues {
  return Object.fromEntries(params.map((p) => [
    p.key,
    p.type === "int" || p.type === "number" ? Number(v[p.key]) : v[p.key],
  ]));
}

interface Props {
  t: TFunction;
  params: ParamDef[];
  values: ParamValues;
  errors: Record<string, string>;
  onChange: (v: ParamValues) => void;
}

/** The form controls of an instruction's typed parameters. */
export function ParamFields({ t, params, values, errors, onChange }: Props) {
  const set = (key: string, value: unknown) => onChange({ ...values, [key]: value });
  return (
    <>
      {params.map((p) => {
        const label = t(`commands.params.${p.key}`);
        const hint = p.type === "int" || p.type === "number"
          ? t("commands.ui.range", { min: p.min, max: p.max })
          : undefined;
        return (
          <Field key={p.key} label={label} required error={errors[p.key]} hint={hint}>
            {p.type === "enum"
              ? (
                <select
                  class="input"
                  name={p.key}
                  value={String(values[p.key])}
                  onChange={(e) => set(p.key, (e.target as HTMLSelectElement).value)}
                >
                  {p.options.map((o) => (
                    <option key={o} value={o}>{t(`commands.alarmOptions.${o}`)}</option>
                  ))}
                </select>
              )
              : p.type === "phones"
              ? (
                <div class="cmd-phones">
                  {(values[p.key] as string[]).map((n, i) => (
                    <input
                      key={i}
                      class="input"
                      name={`${p.key}.${i}`}
                      inputMode="tel"
                      placeholder={`${i + 1}`}
                      value={n}
                      onInput={(e) => {
                        const next = [...(values[p.key] as string[])];
                        next[i] = (e.target as HTMLInputElement).value;
                        set(p.key, next);
                      }}
                    />
                  ))}
                </div>
              )
              : (
                <input
                  class="input"
                  name={p.key}
                  type={p.type === "text" ? "text" : "number"}
                  step={p.type === "number" ? "any" : undefined}
                  maxLength={p.type === "text" ? p.max : undefined}
                  value={String(values[p.key] ?? "")}
                  onInput={(e) => set(p.key, (e.target as HTMLInputElement).value)}
                />
              )}
          </Field>
        );
      })}
    </>
  );
}

/**
 * The instruction being filled in and its parameter values; `choose` switches to another one,
 * starting from its defaults (overlaid with `params`, e.g. a template's).
 */
export function useInstruction<D extends InstructionDef>(initial: D | null, params?: ParamValues) {
  const start = (d: D | null, p?: ParamValues) => (d ? { ...defaultParams(d.params), ...p } : {});
  const [def, setDef] = useState<D | null>(initial);
  const [values, setValues] = useState<ParamValues>(() => start(initial, params));
  const choose = (next: D, p?: ParamValues) => {
    setDef(next);
    setValues(start(next, p));
  };
  return { def, values, setValues, choose };
}

/** What the parameter fields need of `useInstruction`. */
export interface Instruction {
  def: InstructionDef | null;
  values: ParamValues;
  setValues: (v: ParamValues) => void;
}

/**
 * The instruction choice (`children`: the page's own picker, under the "instruction" label)
 * followed by the parameter fields of the instruction being filled in.
 */
export function InstructionFields({ t, instruction, errors, children }: {
  t: TFunction;
  instruction: Instruction;
  errors: Record<string, string>;
  children: ReactNode;
}) {
  return (
    <>
      <Field label={t("commands.columns.name")} required>{children}</Field>
      {instruction.def && (
        <ParamFields
          t={t}
          params={instruction.def.params}
          values={instruction.values}
          errors={errors}
          onChange={instruction.setValues}
        />
      )}
    </>
  );
}
