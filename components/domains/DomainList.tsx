import type { TFunction } from "i18next";
import type { DomainConfig } from "./types.ts";
import { formatDateTime } from "../accounts/types.ts";
import { COLOR_FIELDS } from "./validate.ts";

interface Props {
  t: TFunction;
  list: DomainConfig[] | null;
  editing: string | null;
  onEdit: (config: DomainConfig) => void;
  onDelete: (config: DomainConfig) => void;
}

/** The saved host configurations; "*" is the fallback for hosts without their own. */
export function DomainList({ t, list, editing, onEdit, onDelete }: Props) {
  const rows = [...(list ?? [])].sort((a, b) =>
    a.host === "*" ? -1 : b.host === "*" ? 1 : a.host.localeCompare(b.host)
  );
  return (
    <div class="table-wrap">
      <table class="data domain-table">
        <thead>
          <tr>
            <th>{t("domains.fields.host")}</th>
            <th>{t("domains.fields.domainTitle")}</th>
            <th>{t("domains.fields.defaultLanguage")}</th>
            <th>{t("domains.list.colors")}</th>
            <th>{t("domains.list.updated")}</th>
            <th>{t("ui.actions")}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((d) => (
            <tr key={d.host} data-host={d.host} class={d.host === editing ? "checked" : undefined}>
              <td class="strong">{d.host === "*" ? t("domains.list.fallback") : d.host}</td>
              <td>{d.domainTitle}</td>
              <td>{t(`shell.languages.${d.defaultLanguage}`)}</td>
              <td>
                {COLOR_FIELDS.map((f) => (
                  <span
                    key={f}
                    class="color-dot"
                    style={{ background: d[f] }}
                    title={`${t(`domains.fields.${f}`)} ${d[f]}`}
                  />
                ))}
              </td>
              <td>{d.updatedAt ? formatDateTime(d.updatedAt) : "—"}</td>
              <td>
                <button
                  type="button"
                  class="link-btn"
                  data-action="edit"
                  onClick={() =>
                    onEdit(d)}
                >
                  {t("ui.edit")}
                </button>
                <button
                  type="button"
                  class="link-btn danger"
                  data-action="delete"
                  onClick={() =>
                    onDelete(d)}
                >
                  {t("ui.delete")}
                </button>
              </td>
            </tr>
          ))}
          {!rows.length && (
            <tr>
              <td colSpan={6}>
                <div class="empty">{list ? t("domains.list.empty") : t("ui.loading")}</div>
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
