import type { PageKit } from "./mount.tsx";
import { SettingsLayout, Shell } from "../components/Shell.tsx";
import AccountManager from "../islands/accounts/AccountManager.tsx";
import DomainEditor from "../islands/domains/DomainEditor.tsx";
import ProfileForm from "../islands/accounts/ProfileForm.tsx";
import ChangePasswordForm from "../islands/auth/ChangePasswordForm.tsx";
import { NoPermissionPage } from "./status.tsx";
import { LoginLogPage } from "./login_logs.tsx";
import { RELEASES } from "../app/pages/releases.ts";
import { ACCOUNT_TYPES } from "../modules/accounts/model.ts";

/** Login-required pages of the shell (spec §2) that exist so far. */
export function registerConsolePages({ app, privatePage, renderer, services }: PageKit) {
  app.get("/", (c) => c.redirect("/mainFrame"));
  privatePage("/mainFrame", (c) => c.redirect("/monitorObject"));
  privatePage("/monitor", (c) => c.redirect("/monitorObject"));
  privatePage("/allSettings", (c) => c.redirect("/myProfile"));

  privatePage("/account", (c, ctx) => {
    const user = ctx.user!;
    // Same rule as the API's manageAccounts need (modules/accounts/needs.ts).
    const canModify = user.accountType !== ACCOUNT_TYPES.endUser && !user.userFictitiousFlag;
    const me = {
      id: user.userId,
      account: user.account,
      nickName: user.nickName,
      accountType: user.accountType,
      isVirtual: user.userFictitiousFlag,
      canModify,
    };
    return renderer.html(
      c,
      ctx,
      ctx.t("shell.sections.accounts"),
      <Shell ctx={ctx}>
        <AccountManager lang={ctx.lang} me={me} />
      </Shell>,
    );
  });

  privatePage("/addDomain", (c, ctx) => {
    if (ctx.user!.accountType !== ACCOUNT_TYPES.administrator || ctx.user!.userFictitiousFlag) {
      return renderer.html(
        c,
        ctx,
        ctx.t("pages.noPermission.title"),
        <NoPermissionPage ctx={ctx} />,
        403,
      );
    }
    return renderer.html(
      c,
      ctx,
      ctx.t("shell.sections.domains"),
      <Shell ctx={ctx}>
        <div class="page">
          <DomainEditor lang={ctx.lang} />
        </div>
      </Shell>,
    );
  });

  privatePage(
    "/noPermission",
    (c, ctx) =>
      renderer.html(c, ctx, ctx.t("pages.noPermission.title"), <NoPermissionPage ctx={ctx} />, 403),
  );

  privatePage("/myProfile", (c, ctx) =>
    renderer.html(
      c,
      ctx,
      ctx.t("settings.items.profile"),
      <SettingsLayout ctx={ctx}>
        <ProfileForm lang={ctx.lang} user={ctx.user!} />
      </SettingsLayout>,
    ));

  privatePage("/changePassword", (c, ctx) =>
    renderer.html(
      c,
      ctx,
      ctx.t("settings.items.changePassword"),
      <SettingsLayout ctx={ctx}>
        <ChangePasswordForm lang={ctx.lang} isVirtual={ctx.user!.userFictitiousFlag} />
      </SettingsLayout>,
    ));

  privatePage("/loginLogs", async (c, ctx) => {
    const cursor = c.req.query("cursor") || undefined;
    const page = await services.authStore.loginLog(ctx.user!.id, 20, cursor).catch(() => ({
      items: [],
      cursor: null,
    }));
    return renderer.html(
      c,
      ctx,
      ctx.t("settings.items.loginLogs"),
      <SettingsLayout ctx={ctx}>
        <LoginLogPage ctx={ctx} items={page.items} next={page.cursor} first={!cursor} />
      </SettingsLayout>,
    );
  });

  privatePage("/releaseNotes", (c, ctx) =>
    renderer.html(
      c,
      ctx,
      ctx.t("settings.items.releaseNotes"),
      <SettingsLayout ctx={ctx}>
        <div class="panel release-notes">
          <div class="panel-title">
            <h1>{ctx.t("settings.items.releaseNotes")}</h1>
          </div>
          {RELEASES.map((r) => (
            <section key={r.version}>
              <h2>
                {r.version} <span class="badge">{r.date}</span>
              </h2>
              <ul>{r.items.map((k) => <li key={k}>{ctx.t(`release.items.${k}`)}</li>)}</ul>
            </section>
          ))}
        </div>
      </SettingsLayout>,
    ));
}
