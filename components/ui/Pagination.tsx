import type { TFunction } from "i18next";
import { useState } from "react";

/** Spec §9: sizes 10/20/30/50/100, default 10, 7 pager buttons, shown only when total ≥ 10. */
export const PAGE_SIZES = [10, 20, 30, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 10;
const PAGER_COUNT = 7;

/** A list's page, named as the list calls send it. */
export interface PageState {
  pageNum: number;
  pageSize: number;
}
export const FIRST_PAGE: PageState = { pageNum: 1, pageSize: DEFAULT_PAGE_SIZE };

interface Props {
  total: number;
  pageNum: number;
  pageSize: number;
  onChange: (pageNum: number, pageSize: number) => void;
  t: TFunction;
}

/** Page numbers to show: first, last, and a window around the current page, with gaps as 0. */
export function pagerItems(current: number, pages: number, count = PAGER_COUNT): number[] {
  if (pages <= count) return Array.from({ length: pages }, (_, i) => i + 1);
  const side = Math.floor((count - 3) / 2);
  let start = Math.max(2, current - side);
  let end = Math.min(pages - 1, current + side);
  if (current - side <= 2) end = count - 2;
  if (current + side >= pages - 1) start = pages - count + 3;
  const middle = Array.from({ length: end - start + 1 }, (_, i) => start + i);
  return [1, ...(start > 2 ? [0] : []), ...middle, ...(end < pages - 1 ? [0] : []), pages];
}

export function Pagination({ total, pageNum, pageSize, onChange, t }: Props) {
  const [jump, setJump] = useState("");
  if (total < 10) return null;
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const go = (p: number) => onChange(Math.min(pages, Math.max(1, p)), pageSize);
  return (
    <nav class="pagination" aria-label={t("ui.pagination.label")}>
      <span class="total">{t("ui.pagination.total", { total })}</span>
      <button
        type="button"
        disabled={pageNum <= 1}
        onClick={() => go(pageNum - 1)}
        aria-label={t("ui.pagination.prev")}
      >
        ‹
      </button>
      {pagerItems(pageNum, pages).map((p, i) =>
        p === 0 ? <span key={`gap${i}`} class="gap">…</span> : (
          <button
            type="button"
            key={p}
            class={p === pageNum ? "active" : ""}
            aria-current={p === pageNum ? "page" : undefined}
            onClick={() => go(p)}
          >
            {p}
          </button>
        )
      )}
      <button
        type="button"
        disabled={pageNum >= pages}
        onClick={() => go(pageNum + 1)}
        aria-label={t("ui.pagination.next")}
      >
        ›
      </button>
      <select
        aria-label={t("ui.pagination.size")}
        value={pageSize}
        onChange={(e) => onChange(1, Number((e.target as HTMLSelectElement).value))}
      >
        {PAGE_SIZES.map((s) => (
          <option key={s} value={s}>{t("ui.pagination.perPage", { size: s })}</option>
        ))}
      </select>
      <label class="jumper">
        {t("ui.pagination.goTo")}
        <input
          type="number"
          min={1}
          max={pages}
          value={jump}
          onInput={(e) => setJump((e.target as HTMLInputElement).value)}
          onKeyDown={(e) => {
            if (e.key === "Enter" && jump) {
              go(Number(jump));
              setJump("");
            }
          }}
        />
      </label>
    </nav>
  );
}

/** Pagination bound to a list's PageState (what every list page wires by hand otherwise). */
export function PagerFor({ t, total, page, setPage }: {
  t: TFunction;
  total: number;
  page: PageState;
  setPage: (page: PageState) => void;
}) {
  return (
    <Pagination
      t={t}
      total={total}
      pageNum={page.pageNum}
      pageSize={page.pageSize}
      onChange={(pageNum, pageSize) => setPage({ pageNum, pageSize })}
    />
  );
}

/**
 * A searchable list's page and search counter: `search()` goes back to page 1 and bumps
 * `searches`, so a list effect depending on both reloads even when it already was on page 1.
 */
export function usePagedSearch() {
  const [page, setPage] = useState<PageState>(FIRST_PAGE);
  const [searches, setSearches] = useState(0);
  const search = () => {
    setPage((p) => ({ ...p, pageNum: 1 }));
    setSearches((n) => n + 1);
  };
  return { page, setPage, searches, search };
}
