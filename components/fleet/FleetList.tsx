/**
 * Scaffolding shared by the fleet list pages (drivers, vehicles): the search toolbar with one
 * filter, the table or its empty state, and a row's edit / delete links. Each island keeps
 * its own columns, cells and forms.
 */
import type { ReactNode } from "react";
import type { translator } from "../../lib/i18n/i18n.ts";

type Translate = ReturnType<typeof translator>;

/** Keyword search plus one select filter; a new query or filter goes back to page 1. */
export function FleetToolbar({ t, keyword, setKeyword, searchLabel, filter, onQuery }: {
  t: Translate;
  keyword: string;
  setKeyword: (keyword: string) => void;
  searchLabel: string;
  filter: {
    label: string;
    value: string;
    options: { value: string; label: string }[];
    onChange: (value: string) => void;
  };
  /** Runs the search with the trimmed keyword (undefined when blank). */
  onQuery: (keyword: string | undefined) => void;
}) {
  return (
    <form
      class="toolbar"
      onSubmit={(e) => {
        e.preventDefault();
        onQuery(keyword.trim() || undefined);
      }}
    >
      <input
        class="input grow"
        type="search"
        maxLength={50}
        value={keyword}
        placeholder={searchLabel}
        aria-label={searchLabel}
        onInput={(e) => setKeyword((e.target as HTMLInputElement).value)}
      />
      <select
        class="input"
        aria-label={filter.label}
        value={filter.value}
        onChange={(e) => filter.onChange((e.target as HTMLSelectElement).value)}
      >
        <option value="">{filter.label}: {t("fleet.common.all")}</option>
        {filter.options.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
      </select>
      <button class="btn" type="submit">{t("fleet.common.query")}</button>
    </form>
  );
}

/** The list's table (headers given, rows as children), or its empty state when nothing is found. */
export function FleetTable({ t, empty, filtered, headers, actions = true, children }: {
  t: Translate;
  empty: boolean;
  /** A search or filter is on: the empty state says "no match" rather than "empty". */
  filtered: boolean;
  headers: string[];
  /** The last column holds row actions (edit, delete). */
  actions?: boolean;
  children: ReactNode;
}) {
  if (empty) {
    return <div class="empty">{t(filtered ? "fleet.common.noMatch" : "fleet.common.empty")}</div>;
  }
  return (
    <div class="table-wrap">
      <table class="data fl-table">
        <thead>
          <tr>
            {headers.map((h) => <th key={h}>{h}</th>)}
            {actions && <th>{t("fleet.common.actions")}</th>}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/** A row's edit and delete links. */
export function RowActions({ t, onEdit, onDelete }: {
  t: Translate;
  onEdit: () => void;
  onDelete: () => void;
}) {
  return (
    <td class="fl-row-actions">
      <button type="button" class="link-btn" onClick={onEdit}>{t("fleet.common.edit")}</button>
      <button type="button" class="link-btn danger" onClick={onDelete}>
        {t("fleet.common.delete")}
      </button>
    </td>
  );
}
