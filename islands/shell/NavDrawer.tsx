import { type RefObject, useLayoutEffect, useRef, useState } from "react";
import type { JSX } from "preact";
import { island } from "../../lib/islands/island.tsx";
import { type Lang, LANGUAGES, translator } from "../../lib/i18n/i18n.ts";
import { logout, switchLanguage } from "../../lib/client/session.ts";
import { isActive, MONITOR_NAV, sectionsFor, SETTINGS_GROUPS } from "../../components/shell_nav.ts";
import { REPORT_NAV } from "../../components/reports/nav.ts";
import { VIDEO_NAV } from "../../components/video/nav.ts";

interface Props {
  lang: Lang;
  /** The page's path: marks the current section and entry. */
  path: string;
  accountType: number;
  /** The view-reports permission: the Reports section and its pages. */
  viewReports?: boolean;
  nickName: string;
  account: string;
}

const FOCUSABLE = "a[href], button:not([disabled]), select, input, [tabindex]:not([tabindex='-1'])";

/**
 * The navigation of phones and narrow windows (issue 15): a menu button in the top bar opens
 * a drawer over the page with every section, the monitor's and the settings area's pages,
 * the language and logout. While open, the page behind is inert and does not scroll, Tab
 * stays in the drawer, and Escape, the backdrop, the close button or following a link
 * close it (focus returns to the menu button).
 */
function NavDrawer({ lang, path, accountType, viewReports, nickName, account }: Props) {
  const t = translator(lang);
  const [open, setOpen] = useState(false);
  const toggle = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLElement>(null);

  const close = (restoreFocus = true) => {
    setOpen(false);
    if (restoreFocus) toggle.current?.focus();
  };

  useDrawerLock(open, panel, close);

  const link = (href: string, label: string, active: boolean) => (
    <a
      key={href}
      href={href}
      class={active ? "active" : ""}
      aria-current={active ? "page" : undefined}
      onClick={() => close(false)}
    >
      {label}
    </a>
  );

  return (
    <>
      <button
        ref={toggle}
        type="button"
        class="nav-toggle"
        aria-label={t("shell.menu")}
        aria-expanded={open}
        aria-controls="nav-drawer"
        onClick={() => setOpen(true)}
      >
        <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
          <path d="M3 6h18M3 12h18M3 18h18" stroke="currentColor" stroke-width="2" />
        </svg>
      </button>
      <div
        class={`drawer-backdrop ${open ? "open" : ""}`}
        onClick={() => close()}
        aria-hidden="true"
      />
      <aside
        ref={panel}
        id="nav-drawer"
        class={`drawer ${open ? "open" : ""}`}
        role="dialog"
        aria-modal="true"
        aria-label={t("shell.mainNav")}
      >
        <header class="drawer-head">
          <span class="avatar" aria-hidden="true">{nickName.slice(0, 1).toUpperCase()}</span>
          <div class="drawer-user">
            <b>{nickName}</b>
            <span>{account}</span>
          </div>
          <button
            type="button"
            class="drawer-close icon-btn"
            aria-label={t("ui.close")}
            onClick={() => close()}
          >
            ×
          </button>
        </header>
        <nav class="drawer-nav" aria-label={t("shell.mainNav")}>
          <DrawerSections
            t={t}
            path={path}
            accountType={accountType}
            viewReports={viewReports}
            link={link}
          />
        </nav>
        <footer class="drawer-foot">
          <label>
            <span>{t("shell.language")}</span>
            <select
              value={lang}
              onChange={(e) => switchLanguage((e.target as HTMLSelectElement).value)}
            >
              {LANGUAGES.map((l) => <option key={l} value={l}>{t(`shell.languages.${l}`)}</option>)}
            </select>
          </label>
          <button type="button" class="btn" id="drawer-logout" onClick={logout}>
            {t("shell.logout")}
          </button>
        </footer>
      </aside>
    </>
  );
}

/**
 * While the drawer is open: the page behind is inert and does not scroll, focus starts on the
 * close button, Tab stays in the drawer, and Escape (or a page restored from the cache) closes
 * it.
 */
function useDrawerLock(
  open: boolean,
  panel: RefObject<HTMLElement>,
  close: (restoreFocus?: boolean) => void,
) {
  // A layout effect: the page behind is inert and locked in the same frame the drawer opens.
  useLayoutEffect(() => {
    const main = document.querySelector("main");
    if (!open) return;
    const before = document.body.style.overflow;
    document.body.style.overflow = "hidden";
    if (main) main.inert = true;
    panel.current?.querySelector<HTMLElement>(".drawer-close")?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") {
        e.preventDefault();
        close();
      } else if (e.key === "Tab") trapTab(panel, e);
    };
    // A page restored from the back/forward cache comes back with the drawer closed.
    const onShow = () => close(false);
    addEventListener("keydown", onKey);
    addEventListener("pageshow", onShow);
    return () => {
      document.body.style.overflow = before;
      if (main) main.inert = false;
      removeEventListener("keydown", onKey);
      removeEventListener("pageshow", onShow);
    };
  }, [open]);
}

/** Keeps Tab and Shift+Tab cycling inside the drawer. */
function trapTab(panel: RefObject<HTMLElement>, e: KeyboardEvent) {
  const items = [...(panel.current?.querySelectorAll<HTMLElement>(FOCUSABLE) ?? [])];
  if (!items.length) return;
  const first = items[0], last = items[items.length - 1];
  if (e.shiftKey && document.activeElement === first) {
    e.preventDefault();
    last.focus();
  } else if (!e.shiftKey && document.activeElement === last) {
    e.preventDefault();
    first.focus();
  }
}

/** Every section the user may open; monitor, reports and settings unfold into their pages. */
function DrawerSections(
  { t, path, accountType, viewReports, link }: {
    t: ReturnType<typeof translator>;
    path: string;
    accountType: number;
    viewReports?: boolean;
    link: (href: string, label: string, active: boolean) => JSX.Element;
  },
) {
  return (
    <>
      {sectionsFor(accountType, viewReports).map((s) => {
        const active = isActive(s, path);
        const label = t(`shell.sections.${s.key}`);
        if (s.key === "monitor") {
          return (
            <details key={s.key} open={active}>
              <summary class={active ? "active" : ""}>{label}</summary>
              {MONITOR_NAV.map(([href, key]) =>
                link(href, t(`monitor.tabs.${key}`), path === href)
              )}
            </details>
          );
        }
        if (s.key === "reports") {
          return (
            <details key={s.key} open={active}>
              <summary class={active ? "active" : ""}>{label}</summary>
              {REPORT_NAV.map((g) => (
                <div key={g.key} class="drawer-group">
                  <h4>{t(g.key)}</h4>
                  {g.items.map(([href, key]) => link(href, t(key), path === href))}
                </div>
              ))}
            </details>
          );
        }
        if (s.key === "video") {
          return (
            <details key={s.key} open={active}>
              <summary class={active ? "active" : ""}>{label}</summary>
              {VIDEO_NAV.map(([href, key]) => link(href, t(`video.nav.${key}`), path === href))}
            </details>
          );
        }
        if (s.key === "settings") {
          return (
            <details key={s.key} open={active}>
              <summary class={active ? "active" : ""}>{label}</summary>
              {SETTINGS_GROUPS.map((g) => (
                <div key={g.key} class="drawer-group">
                  <h4>{t(`settings.groups.${g.key}`)}</h4>
                  {g.items.map(([href, key]) =>
                    link(href, t(`settings.items.${key}`), path === href)
                  )}
                </div>
              ))}
            </details>
          );
        }
        return link(s.href, label, active);
      })}
    </>
  );
}

export default island("shell/NavDrawer", NavDrawer);
