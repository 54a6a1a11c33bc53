import type { ReactNode } from "react";
import type { PageContext } from "../app/pages/context.ts";
import ShellActions from "../islands/shell/ShellActions.tsx";
import AlertPopup from "../islands/alerts/AlertPopup.tsx";
import AnnouncementPopup from "../islands/help/AnnouncementPopup.tsx";
import { imageUrl } from "../modules/domains/store.ts";
import NavDrawer from "../islands/shell/NavDrawer.tsx";
import TableCues from "../islands/shell/TableCues.tsx";
import { isActive, sectionsFor, SETTINGS_GROUPS } from "./shell_nav.ts";

export function Shell({ ctx, children }: { ctx: PageContext; children: ReactNode }) {
  const { t, user, domain } = ctx;
  const logo = imageUrl(domain, "domainLogin");
  const sections = sectionsFor(user?.accountType, user?.viewReportFlag === 1);
  return (
    <>
      <header class="topbar">
        {user && (
          <NavDrawer
            lang={ctx.lang}
            path={ctx.path}
            accountType={user.accountType}
            viewReports={user.viewReportFlag === 1}
            nickName={user.nickName}
            account={user.account}
          />
        )}
        <a class="brand" href="/mainFrame">
          {logo ? <img src={logo} alt="" /> : <span class="logo-dot" aria-hidden="true">◎</span>}
          <span>{domain.domainTitle}</span>
        </a>
        <nav class="mainnav" aria-label={t("shell.mainNav")}>
          {sections.map((s) => (
            <a
              key={s.key}
              href={s.href}
              class={isActive(s, ctx.path) ? "active" : ""}
            >
              {t(`shell.sections.${s.key}`)}
            </a>
          ))}
        </nav>
        {user && (
          <ShellActions
            lang={ctx.lang}
            nickName={user.nickName}
            account={user.account}
            mobile={ctx.mobile}
          />
        )}
      </header>
      <main>{children}</main>
      {user && <AlertPopup lang={ctx.lang} />}
      {user && <AnnouncementPopup lang={ctx.lang} />}
      <TableCues />
    </>
  );
}

/** The settings area's side navigation (spec §2 settings routes that exist). */
export function SettingsLayout(
  { ctx, children }: { ctx: PageContext; children: ReactNode },
) {
  const { t } = ctx;
  return (
    <Shell ctx={ctx}>
      <div class="layout-side">
        <nav class="sidenav" aria-label={t("settings.nav")}>
          {SETTINGS_GROUPS.map((g) => (
            <div key={g.key}>
              <h4>{t(`settings.groups.${g.key}`)}</h4>
              {g.items.map(([href, key]) => (
                <a key={href} href={href} class={ctx.path === href ? "active" : ""}>
                  {t(`settings.items.${key}`)}
                </a>
              ))}
            </div>
          ))}
        </nav>
        <section>{children}</section>
      </div>
    </Shell>
  );
}
