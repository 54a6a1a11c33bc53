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
import {
  OLD_REPORT_GROUPS,
  parseTripId,
  REPORT_MENU_VIEWS,
} from "../modules/reports/sensor_model.ts";
import ReportPage from "../islands/reports/ReportPage.tsx";
import DeviceOverview from "../islands/reports/DeviceOverview.tsx";
import MovingOverview from "../islands/reports/MovingOverview.tsx";
import AlertOverview from "../islands/reports/AlertOverview.tsx";
import TaskCenter from "../islands/reports/TaskCenter.tsx";
import MyReports from "../islands/reports/MyReports.tsx";
import AutoReports from "../islands/autoreports/AutoReports.tsx";
import type { UserUnits } from "../components/reports/format.ts";

const BUILT = new Set<string>(REPORT_NAMES);

/** The user's units and zone, as the report pages convert the API's values. */
function unitsOf(ctx: PageContext): UserUnits {
  const u = ctx.user!;
  return {
    distance: u.showUnit,
    speed: u.speed,
    capacity: u.capacity,
    timeZone: u.timeZones || "UTC",
    temperature: u.temperature,
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
  // The old version's first page is the internal-battery report (spec §2).
  redirect("/oldMyReport", "/internalBattery");

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
        <MenuViews ctx={ctx} />
        <ReportGroups ctx={ctx} groups={OLD_REPORT_GROUPS} old />
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

  for (const name of REPORT_NAMES) {
    page(
      `/new/${name}`,
      (ctx) => ctx.t(`reports.names.${name}`),
      (c, ctx) => (
        <ReportPage
          lang={ctx.lang}
          report={name}
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
  registerObdTripInfo(page, privatePage);
}

/**
 * /new/OBDTripReportInfo/{id} (spec §2; the old version's /OBDTripReportInfo/{id} redirects):
 * an OBD trip's readings — the obdTripInfo report over the trip's device and interval.
 */
function registerObdTripInfo(
  page: (
    path: string,
    title: (ctx: PageContext) => string,
    body: (c: Context<AppEnv>, ctx: PageContext) => ComponentChildren,
    intro?: (ctx: PageContext) => string,
  ) => void,
  privatePage: PageKit["privatePage"],
) {
  privatePage(
    "/OBDTripReportInfo/:id",
    (c) => c.redirect(`/new/OBDTripReportInfo/${encodeURIComponent(c.req.param("id") ?? "")}`),
  );
  page(
    "/new/OBDTripReportInfo/:id",
    (ctx) => ctx.t("reports.sensor.tripInfo"),
    (c, ctx) => {
      const trip = parseTripId(c.req.param("id") ?? "");
      // Back to the trips of that device around the trip's day.
      const around = trip && new URLSearchParams({
        imei: trip.imei,
        startTime: new Date(trip.start - 86_400_000).toISOString(),
        endTime: new Date(trip.end + 86_400_000).toISOString(),
      });
      const back = (
        <a class="rp-back" href={`/new/obdTrip${around ? `?${around}` : ""}`}>
          ← {ctx.t("reports.sensor.tripBack")}
        </a>
      );
      if (!trip) {
        return (
          <div class="rp-body">
            {back}
            <p class="rp-note" data-testid="trip-not-found">
              {ctx.t("reports.sensor.tripNotFound")}
            </p>
          </div>
        );
      }
      return (
        <>
          {back}
          <ReportPage
            lang={ctx.lang}
            report="obdTripInfo"
            units={unitsOf(ctx)}
            root={{
              id: ctx.user!.userId,
              account: ctx.user!.account,
              nickName: ctx.user!.nickName,
              accountType: ctx.user!.accountType,
            }}
            imeis={[trip.imei]}
            startTime={new Date(trip.start).toISOString()}
            endTime={new Date(trip.end).toISOString()}
          />
        </>
      );
    },
    (ctx) => ctx.t("reports.about.obdTripInfo", { days: REPORT_RANGE_DAYS.obdTripInfo }),
  );
}

/** Menu entries of spec §2 that open other reports (mileage daily, vehicle status…). */
function MenuViews({ ctx }: { ctx: PageContext }) {
  const { t } = ctx;
  return (
    <section class="panel rp-group rp-menu-views" data-group="menu">
      <h2>{t("reports.groups.menu")}</h2>
      <ul class="rp-tiles">
        {REPORT_MENU_VIEWS.map((m) => (
          <li key={m.key} class="rp-tile" data-menu={m.key}>
            <a href={m.href}>{t(`reports.menu.${m.key}`)}</a>
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * The report groups (spec §2): the new version's at /new/{name}, the old version's ("classic",
 * `old`) at /{name}; reports that exist link to their page.
 */
function ReportGroups({ ctx, groups = REPORT_GROUPS, old = false }: {
  ctx: PageContext;
  groups?: { key: string; reports: string[] }[];
  old?: boolean;
}) {
  const { t } = ctx;
  return (
    <div class={`rp-groups${old ? " rp-groups-old" : ""}`}>
      {old && <h2 class="rp-groups-title">{t("reports.groups.old")}</h2>}
      {groups.map((g) => (
        <section key={g.key} class="panel rp-group" data-group={g.key}>
          <h2>{t(`reports.groups.${g.key}`)}</h2>
          <ul class="rp-tiles">
            {g.reports.map((r) =>
              BUILT.has(r)
                ? (
                  <li key={r} class="rp-tile" data-report={r}>
                    <a href={old ? `/${r}` : `/new/${r}`}>{t(`reports.names.${r}`)}</a>
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
