import type { ReactNode } from "react";
import type { PageContext } from "../../app/pages/context.ts";
import { Shell } from "../Shell.tsx";
import { REPORT_NAV } from "./nav.ts";

/**
 * The report section's frame: a side navigation (overviews, report list and download centre,
 * the reports by group) and the page with its title and one line under it.
 */
export function ReportsLayout({ ctx, title, intro, actions, children }: {
  ctx: PageContext;
  title: string;
  intro?: string;
  actions?: ReactNode;
  children: ReactNode;
}) {
  const { t } = ctx;
  return (
    <Shell ctx={ctx}>
      <div class="layout-side rp-layout">
        <nav class="sidenav rp-sidenav" aria-label={t("reports.nav.label")}>
          {REPORT_NAV.map((g) => (
            <div key={g.key}>
              <h4>{t(g.key)}</h4>
              {g.items.map(([href, key]) => (
                <a
                  key={href}
                  href={href}
                  class={ctx.path === href ? "active" : ""}
                  aria-current={ctx.path === href ? "page" : undefined}
                >
                  {t(key)}
                </a>
              ))}
            </div>
          ))}
        </nav>
        <section class="rp-main">
          <header class="rp-head">
            <div>
              <h1>{title}</h1>
              {intro && <p class="sub">{intro}</p>}
            </div>
            {actions}
          </header>
          {children}
        </section>
      </div>
    </Shell>
  );
}
