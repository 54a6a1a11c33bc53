import type { Context } from "hono";
import type { ComponentChildren } from "preact";
import type { PageKit } from "./mount.tsx";
import type { AppEnv } from "../lib/http/env.ts";
import type { PageContext } from "../app/pages/context.ts";
import { ReportsLayout } from "../components/reports/ReportsLayout.tsx";
import { NoPermissionPage } from "./status.tsx";
import {
  REPORT_GROUPS,
  REPORT_NAMES,
  REPORT_RANGE_DAYS,
  type ReportName,
} from "../modules/reports/model.ts";
import ReportPage from "../islands/reports/ReportPage.tsx";
import DeviceOverview from "../islands/reports/DeviceOverview.tsx";
import MovingOverview from "../islands/reports/MovingOverview.tsx";
import AlertOverview from "../islands/reports/AlertOverview.tsx";
import TaskCenter from "../islands/reports/TaskCenter.tsx";
import MyReports from "../islands/reports/MyReports.tsx";
import type { UserUnits } from "../components/reports/format.ts";

const BUILT = new Set<string>(REPORT_NAMES);

/** The user's units and zone, as the report pages convert the API's values. */
import AutoReports from "../islands/autoreports/AutoReports.tsx";
function unitsOf(ctx: PageContext): UserUnits {
  const u = ctx.user!;
  return {
    distance: u.showUnit,
    speed: u.speed,
    capacity: u.capacity,
    timeZone: u.timeZones || "UTC",
  };
}

/** Query IMEIs: one or several (comma-separated), 15 digits each, at most 200. */
function imeisOf(value: string | undefined): string[] {
  return [...new Set((value ?? "").split(",").map((v) => v.trim()))]
    .filter((v) => /^\d{15}$/.test(v)).slice(0, 200);
}

/** A query time as given (ISO or epoch digits; the island parses it), bounded in length. */
const timeOf = (value: string | undefined) => (value ?? "").slice(0, 40);

/**
 * The report section (spec §2 Reports, console §2): overviews, the report list and the user's
 * own list, one page per report at /new/{name}, the old-version /{name} pages redirecting to
 * them, and the download centre. Without the view-reports permission every page answers the
 * no-permission page.
 */
export function registerReportPages({ privatePage, renderer }: PageKit) {
  const page = (
    path: string,
    title: (ctx: PageContext) => string,
    body: (c: Context<AppEnv>, ctx: PageContext) => ComponentChildren,
    intro?: (ctx: PageContext) => string,
  ) =>
    privatePage(path, (c, ctx) => {
      if (ctx.user!.viewReportFlag !== 1) {
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
        title(ctx),
        <ReportsLayout ctx={ctx} title={title(ctx)} intro={intro?.(ctx)}>
          {body(c, ctx)}
        </ReportsLayout>,
      );
    });
  const redirect = (from: string, to: string) =>
    privatePage(from, (c) => c.redirect(to + (new URL(c.req.url).search || "")));

  redirect("/report", "/deviceOverview");
  redirect("/overview", "/deviceOverview");
  redirect("/myReport", "/reportList");
  // The old version's first page is the internal-battery report, which does not exist yet.
  redirect("/oldMyReport", "/reportList");

  page(
    "/deviceOverview",
    (ctx) => ctx.t("reports.pages.deviceOverview"),
    (_c, ctx) => <DeviceOverview lang={ctx.lang} />,
    (ctx) => ctx.t("reports.intro.deviceOverview"),
  );
  page(
    "/movingOverview",
    (ctx) => ctx.t("reports.pages.movingOverview"),
    (_c, ctx) => <MovingOverview lang={ctx.lang} units={unitsOf(ctx)} />,
    (ctx) => ctx.t("reports.intro.movingOverview"),
  );
  page(
    "/alertOverview",
    (ctx) => ctx.t("reports.pages.alertOverview"),
    (_c, ctx) => <AlertOverview lang={ctx.lang} timeZone={unitsOf(ctx).timeZone} />,
    (ctx) => ctx.t("reports.intro.alertOverview"),
  );
  page(
    "/reportList",
    (ctx) => ctx.t("reports.pages.reportList"),
    (_c, ctx) => (
      <>
        <MyReports lang={ctx.lang} mode="list" />
        <ReportGroups ctx={ctx} />
      </>
    ),
    (ctx) => ctx.t("reports.intro.reportList"),
  );
  page(
    "/addReport",
    (ctx) => ctx.t("reports.pages.addReport"),
    (_c, ctx) => <MyReports lang={ctx.lang} mode="add" />,
  );
  page(
    "/task",
    (ctx) => ctx.t("reports.pages.task"),
    (c, ctx) => (
      <TaskCenter
        lang={ctx.lang}
        type={(c.req.query("type") ?? "").slice(0, 40)}
        timeZone={unitsOf(ctx).timeZone}
      />
    ),
    (ctx) => ctx.t("reports.intro.task"),
  );

  for (const name of REPORT_NAMES) {
    page(
      `/new/${name}`,
      (ctx) => ctx.t(`reports.names.${name}`),
      (c, ctx) => (
        <ReportPage
          lang={ctx.lang}
          report={name}
  page(
    "/autoReports",
    (ctx) => ctx.t("autoReports.title"),
    (_c, ctx) => (
      <AutoReports
        lang={ctx.lang}
        timeZone={unitsOf(ctx).timeZone}
        root={{
          id: ctx.user!.userId,
          account: ctx.user!.account,
          nickName: ctx.user!.nickName,
          accountType: ctx.user!.accountType,
        }}
      />
    ),
    (ctx) => ctx.t("autoReports.intro"),
  );

          units={unitsOf(ctx)}
          root={{
            id: ctx.user!.userId,
            account: ctx.user!.account,
            nickName: ctx.user!.nickName,
            accountType: ctx.user!.accountType,
          }}
          imeis={imeisOf(c.req.query("imei"))}
          startTime={timeOf(c.req.query("startTime"))}
          endTime={timeOf(c.req.query("endTime"))}
        />
      ),
      (ctx) => ctx.t(`reports.about.${name}`, { days: REPORT_RANGE_DAYS[name as ReportName] }),
    );
    // The old version's page of the same report (spec: /oldMyReport children at /{name}).
    redirect(`/${name}`, `/new/${name}`);
  }
}

/** The new-version report groups (spec §2): reports that exist link to their page. */
function ReportGroups({ ctx }: { ctx: PageContext }) {
  const { t } = ctx;
  return (
    <div class="rp-groups">
      {REPORT_GROUPS.map((g) => (
        <section key={g.key} class="panel rp-group" data-group={g.key}>
          <h2>{t(`reports.groups.${g.key}`)}</h2>
          <ul class="rp-tiles">
            {g.reports.map((r) =>
              BUILT.has(r)
                ? (
                  <li key={r} class="rp-tile" data-report={r}>
                    <a href={`/new/${r}`}>{t(`reports.names.${r}`)}</a>
                  </li>
                )
                : (
                  <li key={r} class="rp-tile soon" data-report={r}>
                    <span>{t(`reports.names.${r}`)}</span>
                    <em>{t("reports.list.soon")}</em>
                  </li>
                )
            )}
          </ul>
        </section>
      ))}
    </div>
  );
}
