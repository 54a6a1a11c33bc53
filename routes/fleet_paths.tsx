import type { PageKit } from "./mount.tsx";
import { Shell } from "../components/Shell.tsx";
import { FleetTabs } from "../components/fleet/FleetTabs.tsx";
import PathList from "../islands/fleet/paths/PathList.tsx";
import PathEditor from "../islands/fleet/paths/PathEditor.tsx";
import ReminderList from "../islands/fleet/reminders/ReminderList.tsx";

/**
 * Fleet route planning pages (spec business §2): /fleetPath lists the routes, /addFleetPath
 * draws one (`?id=` edits it) on a full-width map — no account tree on that page. The
 * reminders page is /fleetReminder (the spec names no route for it).
 */
export function registerFleetPathPages({ privatePage, renderer, services }: PageKit) {
  privatePage("/fleetPath", (c, ctx) =>
    renderer.html(
      c,
      ctx,
      ctx.t("fleetPaths.title"),
      <Shell ctx={ctx}>
        <div class="page fl-page">
          <FleetTabs t={ctx.t} path={ctx.path} />
          <PathList lang={ctx.lang} />
        </div>
      </Shell>,
    ));
  privatePage("/addFleetPath", (c, ctx) =>
    renderer.html(
      c,
      ctx,
      ctx.t("fleetPaths.addTitle"),
      <Shell ctx={ctx}>
        <PathEditor
          lang={ctx.lang}
          id={c.req.query("id")?.slice(0, 64) ?? null}
          routing={Boolean(services?.config.ROUTING_URL)}
        />
      </Shell>,
    ));
  privatePage("/fleetReminder", (c, ctx) =>
    renderer.html(
      c,
      ctx,
      ctx.t("fleetReminders.title"),
      <Shell ctx={ctx}>
        <div class="page fl-page">
          <FleetTabs t={ctx.t} path={ctx.path} />
          <ReminderList lang={ctx.lang} />
        </div>
      </Shell>,
    ));
}
