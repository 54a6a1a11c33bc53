import type { TFunction } from "i18next";

/** The coloured account-type badge (.type-tag .type-N). */
export function TypeTag({ t, type }: { t: TFunction; type: number }) {
  return <span class={`type-tag type-${type}`}>{t(`shell.accountTypes.${type}`)}</span>;
}
