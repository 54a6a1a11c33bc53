import type { TFunction } from "i18next";
import type { Catalogue } from "./types.ts";

/** How many of the chosen devices accept each instruction (from batchInstructions). */
export interface Acceptance {
  devices: number;
  instructions: { code: string; devices: number; passwordRequired: boolean }[];
}

/**
 * Instructions grouped by category. With devices chosen, each shows how many of them accept
 * it and those none accepts are disabled; otherwise the models that accept it are named.
 */
export function InstructionPicker({ t, catalogue, code, onChange, acceptance }: {
  t: TFunction;
  catalogue: Catalogue;
  code: string;
  onChange: (code: string) => void;
  acceptance?: Acceptance | null;
}) {
  const categories = [...new Set(catalogue.instructions.map((i) => i.category))];
  const models = catalogue.models.filter((m) => m.instructions.some((i) => i.code === code));
  const count = (c: string) => acceptance?.instructions.find((i) => i.code === c)?.devices ?? 0;
  return (
    <>
      <select
        class="input"
        name="instruction"
        value={code}
        onChange={(e) => onChange((e.target as HTMLSelectElement).value)}
      >
        {categories.map((c) => (
          <optgroup key={c} label={t(`commands.categories.${c}`)}>
            {catalogue.instructions.filter((i) => i.category === c).map((i) => (
              <option key={i.code} value={i.code} disabled={!!acceptance && !count(i.code)}>
                {t(`commands.instructions.${i.code}`)}
                {acceptance ? ` (${count(i.code)}/${acceptance.devices})` : ""}
              </option>
            ))}
          </optgroup>
        ))}
      </select>
      <span class="field-hint cmd-models">
        {acceptance
          ? t("commands.ui.acceptedBy", { count: count(code), total: acceptance.devices })
          : t("commands.ui.supportedBy", { models: models.map((m) => m.mcType).join(", ") })}
      </span>
    </>
  );
}

/** True when some model (of the chosen devices, when known) protects the instruction. */
export function needsPassword(
  catalogue: Catalogue,
  code: string,
  acceptance?: Acceptance | null,
): boolean {
  if (acceptance) {
    return acceptance.instructions.some((i) => i.code === code && i.passwordRequired);
  }
  return catalogue.models.some((m) =>
    m.instructions.some((i) => i.code === code && i.passwordRequired)
  );
}
