import type { TFunction } from "i18next";

/** Title and one-line introduction of a command-area page (`vars` fill the introduction). */
export function PageHead({ t, page, vars }: {
  t: TFunction;
  page: string;
  vars?: Record<string, unknown>;
}) {
  return (
    <header class="cmd-head">
      <h1>{t(`commands.pages.${page}.title`)}</h1>
      <p class="sub">{t(`commands.pages.${page}.intro`, vars ?? {})}</p>
    </header>
  );
}

/** Edit and delete links of a table row. */
export function RowActions({ t, onEdit, onDelete }: {
  t: TFunction;
  onEdit: () => void;
  onDelete: () => void;
}) {
  return (
    <td class="col-actions">
      <button type="button" class="link-btn" onClick={onEdit}>{t("ui.edit")}</button>
      <button type="button" class="link-btn danger" onClick={onDelete}>{t("ui.delete")}</button>
    </td>
  );
}
