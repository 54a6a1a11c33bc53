import type { TFunction } from "i18next";
import type { Catalogue } from "./types.ts";

/** Instructions grouped by category, with the models that accept the chosen one. */
export function InstructionPicker({ t, catalogue, code, onChange }: {
  t: TFunction;
  catalogue: Catalogue;
  code: string;
  onChange: (code: string) => void;
}) {
  const categories = [...new Set(catalogue.instructions.map((i) => i.category))];
  const models = catalogue.models.filter((m) => m.instructions.some((i) => i.code === code));
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
              <option key={i.code} value={i.code}>{t(`commands.instructions.${i.code}`)}</option>
            ))}
          </optgroup>
        ))}
      </select>
      <span class="field-hint cmd-models">
        {t("commands.ui.supportedBy", { models: models.map((m) => m.mcType).join(", ") })}
      </span>
    </>
  );
}

/** True when some model protects the instruction with the login password. */
export function needsPassword(catalogue: Catalogue, code: string): boolean {
  return catalogue.models.some((m) =>
    m.instructions.some((i) => i.code === code && i.passwordRequired)
  );
}
