import type { ReactNode } from "react";
import type { TFunction } from "i18next";
import { Pagination } from "../ui/Pagination.tsx";

interface Props {
  t: TFunction;
  /** The header cells. */
  head: ReactNode;
  columns: number;
  loading: boolean;
  /** Shown as one row when there are no rows (and nothing is loading). */
  empty: string;
  count: number;
  class?: string;
  /** Pager under the table (spec §9: shown from 10 rows). */
  paging?: {
    total: number;
    pageNum: number;
    pageSize: number;
    onChange: (pageNum: number, pageSize: number) => void;
  };
  children: ReactNode;
}

/** A data table with loading state, empty row and optional pagination. */
export function DataTable(p: Props) {
  return (
    <>
      <div class={`table-wrap${p.loading ? " is-loading" : ""}`} aria-busy={p.loading}>
        <table class={`data${p.class ? ` ${p.class}` : ""}`}>
          <thead>
            <tr>{p.head}</tr>
          </thead>
          <tbody>
            {p.children}
            {!p.loading && !p.count && (
              <tr class="empty-row">
                <td colSpan={p.columns}>{p.empty}</td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      {p.paging && <Pagination t={p.t} {...p.paging} />}
    </>
  );
}
