import { useEffect, useId, useRef } from "react";

export interface MenuItem {
  /** Also the item's `data-action`. */
  key: string;
  label: string;
  danger?: boolean;
  onSelect: () => void;
}

/**
 * A "⋯" (more) button with a menu of a row's less frequent actions, so a table's sticky
 * Actions column stays narrow. The menu is a popover: it lives in the top layer, so the
 * table frame's scrolling and edge fades do not clip it, and the browser closes it on
 * Escape and on a click outside. It opens under the button (above it when there is no room
 * below), takes the focus, moves with the arrow keys, Home and End, and closes on Tab and
 * when the page scrolls; focus goes back to the button.
 */
export function RowMenu({ label, title, items }: {
  /** What the button shows ("⋯"); its name for screen readers is `title`. */
  label: string;
  /** Its accessible name and tooltip ("More actions for dist_one"). */
  title: string;
  items: MenuItem[];
}) {
  const id = `row-menu-${useId()}`;
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const el = menu.current!;
    const btn = button.current!;
    const close = (e: Event) => {
      if (!(e.target instanceof Node && el.contains(e.target))) el.hidePopover();
    };
    // beforetoggle runs as the menu opens or closes; toggle comes a task later, once it shows.
    const before = (e: Event) => {
      const open = (e as ToggleEvent).newState === "open";
      btn.setAttribute("aria-expanded", String(open));
      if (open) place(btn, el);
    };
    const toggled = (e: Event) => {
      if ((e as ToggleEvent).newState === "open") {
        menuItems(el)[0]?.focus();
        addEventListener("scroll", close, true);
        addEventListener("resize", close);
        return;
      }
      removeEventListener("scroll", close, true);
      removeEventListener("resize", close);
      const active = document.activeElement;
      if (!active || active === document.body || el.contains(active)) btn.focus();
    };
    el.addEventListener("beforetoggle", before);
    el.addEventListener("toggle", toggled);
    return () => {
      el.removeEventListener("beforetoggle", before);
      el.removeEventListener("toggle", toggled);
      removeEventListener("scroll", close, true);
      removeEventListener("resize", close);
    };
  }, []);

  const onKeyDown = (e: KeyboardEvent) => {
    const el = menu.current!;
    const list = menuItems(el);
    const at = list.indexOf(document.activeElement as HTMLElement);
    const go = (i: number) => {
      e.preventDefault();
      list[(i + list.length) % list.length]?.focus();
    };
    if (e.key === "ArrowDown") go(at + 1);
    else if (e.key === "ArrowUp") go(at - 1);
    else if (e.key === "Home") go(0);
    else if (e.key === "End") go(list.length - 1);
    else if (e.key === "Tab") el.hidePopover();
  };

  return (
    <>
      <button
        ref={button}
        type="button"
        class="link-btn row-menu-btn"
        popovertarget={id}
        aria-haspopup="menu"
        aria-expanded="false"
        aria-controls={id}
        aria-label={title}
        title={title}
      >
        <span aria-hidden="true">{label}</span>
      </button>
      <div
        ref={menu}
        id={id}
        class="row-menu"
        popover="auto"
        role="menu"
        aria-label={title}
        onKeyDown={onKeyDown}
      >
        {items.map((item) => (
          <button
            key={item.key}
            type="button"
            role="menuitem"
            tabIndex={-1}
            class={item.danger ? "danger" : undefined}
            data-action={item.key}
            onClick={() => {
              menu.current!.hidePopover();
              item.onSelect();
            }}
          >
            {item.label}
          </button>
        ))}
      </div>
    </>
  );
}

const menuItems = (menu: HTMLElement) => [
  ...menu.querySelectorAll<HTMLElement>("[role=menuitem]"),
];

/**
 * Right edge under the button's right edge (the menu is position: fixed), below the button,
 * or above it when the rows below would not hold the menu (it is not laid out yet, so its
 * height is counted from its items: at most 44 px each on a phone).
 */
function place(button: HTMLElement, menu: HTMLElement) {
  const r = button.getBoundingClientRect();
  const height = menuItems(menu).length * 44 + 12;
  const below = r.bottom + 4 + height <= innerHeight - 8 || r.top < height + 12;
  menu.style.top = below ? `${Math.round(r.bottom + 4)}px` : "auto";
  menu.style.bottom = below ? "auto" : `${Math.round(innerHeight - r.top + 4)}px`;
  menu.style.left = "auto";
  menu.style.right = `${Math.max(8, Math.round(innerWidth - r.right))}px`;
}
