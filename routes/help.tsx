import type { PageKit } from "./mount.tsx";
import { SettingsLayout } from "../components/Shell.tsx";
import ManualLibrary from "../islands/help/ManualLibrary.tsx";
import BusinessLogTable from "../islands/help/BusinessLogTable.tsx";
import AnnouncementBoard from "../islands/help/AnnouncementBoard.tsx";
import { ACCOUNT_TYPES } from "../modules/accounts/model.ts";
import { KEEP_DAYS } from "../modules/businesslog/model.ts";
import { POSTER_TYPES } from "../modules/announcements/model.ts";

/**
 * The settings area's help pages (spec §2 Help: /userManual, /businessLogs) and the
 * announcements list (/announcements, in the message center group; the spec names no route).
 */
export function registerHelpPages({ privatePage, renderer, services }: PageKit) {
  privatePage("/userManual", async (c, ctx) => {
    const user = ctx.user!;
    const isAdmin = user.accountType === ACCOUNT_TYPES.administrator && !user.userFictitiousFlag;
    return renderer.html(
      c,
      ctx,
      ctx.t("settings.items.userManual"),
      <SettingsLayout ctx={ctx}>
        <ManualLibrary lang={ctx.lang} isAdmin={isAdmin} initial={await services.manuals.list()} />
      </SettingsLayout>,
    );
  });

  privatePage("/businessLogs", (c, ctx) =>
    renderer.html(
      c,
      ctx,
      ctx.t("settings.items.businessLogs"),
      <SettingsLayout ctx={ctx}>
        <BusinessLogTable lang={ctx.lang} keepDays={KEEP_DAYS} />
      </SettingsLayout>,
    ));

  privatePage("/announcements", (c, ctx) => {
    const user = ctx.user!;
    // Same rule as the API: a real administrator or distributor posts.
    const canPost = POSTER_TYPES.includes(user.accountType) && !user.userFictitiousFlag;
    return renderer.html(
      c,
      ctx,
      ctx.t("settings.items.announcements"),
      <SettingsLayout ctx={ctx}>
        <AnnouncementBoard lang={ctx.lang} canPost={canPost} />
      </SettingsLayout>,
    );
  });
}
