import { useEffect } from "react";
import { island } from "../../lib/islands/island.tsx";

/** The columns before a table's first content column that stick with it (selection, follow). */
const LEAD = /\b(col-check|col-follow)\b/;

/**
 * Marks every scrolling table frame (`.table-wrap`) on the page so the stylesheet can show
 * where more columns lie (issue 15): `cue-left` / `cue-right` while content is hidden that
 * way, `--actions-w` (its width) so the right fade ends at the sticky Actions column instead of
 * covering it. It also marks each table's leading cells up to its first content column
 * (`data-sticky`, with their left offsets) for the phone layout, which keeps that column in
 * view while the rest scrolls. Tables come and go with the islands' data, so the marks are
 * refreshed on scroll, resize and DOM changes, at most once per frame. Renders nothing.
 */
function TableCues() {
  useEffect(() => {
    let frame = 0;
    const refresh = () => {
      frame = 0;
      for (const wrap of document.querySelectorAll<HTMLElement>(".table-wrap")) mark(wrap);
    };
    const later = () => {
      if (!frame) frame = requestAnimationFrame(refresh);
    };
    refresh();
    const resize = new ResizeObserver(later);
    resize.observe(document.body);
    const changes = new MutationObserver(later);
    changes.observe(document.body, { childList: true, subtree: true });
    addEventListener("scroll", later, { capture: true, passive: true });
    return () => {
      resize.disconnect();
      changes.disconnect();
      removeEventListener("scroll", later, { capture: true });
      if (frame) cancelAnimationFrame(frame);
    };
  }, []);
  return null;
}

function mark(wrap: HTMLElement) {
  const max = wrap.scrollWidth - wrap.clientWidth;
  wrap.classList.toggle("cue-left", max > 1 && wrap.scrollLeft > 1);
  wrap.classList.toggle("cue-right", max > 1 && wrap.scrollLeft < max - 1);
  const actions = wrap.querySelector<HTMLElement>("thead th.col-actions");
  const width = actions ? `${actions.offsetWidth}px` : "0px";
  if (wrap.style.getPropertyValue("--actions-w") !== width) {
    wrap.style.setProperty("--actions-w", width);
  }
  const table = wrap.querySelector<HTMLTableElement>(":scope > table");
  const head = table?.tHead?.rows[0];
  if (!table || !head) return;
  // Offsets of the leading cells and the first content column.
  const lefts: number[] = [];
  let left = 0;
  for (const th of head.cells) {
    lefts.push(left);
    left += th.offsetWidth;
    if (!LEAD.test(th.className)) break;
  }
  const lead = `${left}px`;
  if (wrap.style.getPropertyValue("--lead-width") !== lead) {
    wrap.style.setProperty("--lead-width", lead);
  }
  for (const row of table.rows) {
    for (let i = 0; i < row.cells.length; i++) {
      const cell = row.cells[i];
      const sticky = i < lefts.length && row.cells.length > lefts.length;
      if (sticky) {
        const at = `${lefts[i]}px`;
        if (cell.dataset.sticky !== "") cell.dataset.sticky = "";
        if (cell.style.left !== at) cell.style.left = at;
        cell.classList.toggle("sticky-last", i === lefts.length - 1);
      } else if (cell.dataset.sticky !== undefined) {
        delete cell.dataset.sticky;
        cell.style.left = "";
      }
    }
  }
}

export default island("shell/TableCues", TableCues);
