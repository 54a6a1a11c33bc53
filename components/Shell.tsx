import type { ComponentChildren } from "preact";
import type { PageContext } from "../lib/pages/context.ts";
import ShellActions from "../islands/ShellActions.tsx";
import AlertPopup from "../islands/alerts/AlertPopup.tsx";
import { imageUrl } from "../modules/domains/store.ts";
import { COMMAND_NAV, COMMAND_PAGES } from "./commands/nav.ts";

/** Top-level sections that exist today; the first path of each is where its link goes. */
export const SECTIONS = [
  { key: "monitor", href: "/monitorObject", paths: ["/monitor"] },
  { key: "accounts", href: "/account", paths: ["/account"] },
  { key: "devices", href: "/devices", paths: ["/devices"] },
  { key: "geofences", href: "/geofence", paths: ["/geofence"] },
  { key: "alerts", href: "/alertCenter", paths: ["/alertCenter"] },
  {
    key: "settings",
    href: "/myProfile",
    paths: [
      "/allSettings",
      "/myProfile",
      "/changePassword",
      "/loginLogs",
      "/releaseNotes",
      "/settingAlert",
      "/settingMessages",
      "/modelNameAlias",
      ...COMMAND_PAGES,
    ],
  },
  { key: "domains", href: "/addDomain", paths: ["/addDomain"], adminOnly: true },
] as const;

export function Shell({ ctx, children }: { ctx: PageContext; children: ComponentChildren }) {
  const { t, user, domain } = ctx;
  const logo = imageUrl(domain, "domainLogin");
  const sections = SECTIONS.filter((s) => !("adminOnly" in s) || user?.accountType === 0);
  return (
    <>
      <header class="topbar">
        <a class="brand" href="/mainFrame">
          {logo ? <img src={logo} alt="" /> : <span class="logo-dot" aria-hidden="true">◎</span>}
          <span>{domain.domainTitle}</span>
        </a>
        <nav class="mainnav" aria-label={t("shell.mainNav")}>
          {sections.map((s) => (
            <a
              key={s.key}
              href={s.href}
              class={s.paths.some((p) => ctx.path.startsWith(p)) ? "active" : ""}
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
    </>
  );
}

/** The settings area's side navigation (spec §2 settings routes that exist). */
export function SettingsLayout(
  { ctx, children }: { ctx: PageContext; children: ComponentChildren },
) {
  const { t } = ctx;
  const groups = [
    {
      key: "personal",
      items: [
        ["/myProfile", "profile"],
        ["/changePassword", "changePassword"],
        ["/modelNameAlias", "modelNameAlias"],
      ],
    },
    { key: "commands", items: COMMAND_NAV },
    {
      key: "messages",
      items: [["/settingAlert", "settingAlert"], ["/settingMessages", "settingMessages"]],
    },
    { key: "help", items: [["/loginLogs", "loginLogs"], ["/releaseNotes", "releaseNotes"]] },
  ] as const;
  return (
    <Shell ctx={ctx}>
      <div class="layout-side">
        <nav class="sidenav" aria-label={t("settings.nav")}>
          {groups.map((g) => (
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
