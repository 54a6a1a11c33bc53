/**
 * The report section's navigation (spec §2 Reports): the overviews, the report list, the
 * reports that exist by their new-version group, and the download centre. Shared by the
 * report pages' side navigation (server) and the phone drawer (an island): constants only.
 */
import { REPORT_GROUPS, REPORT_NAMES } from "../../modules/reports/model.ts";
import { REPORT_MENU_VIEWS } from "../../modules/reports/sensor_model.ts";

/** Path prefixes of the section (the top bar marks Reports active on them). */
export const REPORT_SECTION_PATHS = [
  "/report",
  "/overview",
  "/deviceOverview",
  "/movingOverview",
  "/alertOverview",
  "/myReport",
  "/addReport",
  "/new/",
  "/oldMyReport",
  "/task",
  "/autoReports",
] as const;

export interface NavGroup {
  /** Label key of the group. */
  key: string;
  /** [href, label key] */
  items: (readonly [string, string])[];
}

const BUILT = new Set<string>(REPORT_NAMES);

/** The side navigation's groups; a group without a built report is left out. */
export const REPORT_NAV: NavGroup[] = [
  {
    key: "reports.nav.overview",
    items: [
      ["/deviceOverview", "reports.pages.deviceOverview"],
      ["/movingOverview", "reports.pages.movingOverview"],
      ["/alertOverview", "reports.pages.alertOverview"],
    ],
  },
  {
    key: "reports.nav.myReports",
    items: [
      ["/reportList", "reports.pages.reportList"],
      ["/autoReports", "autoReports.title"],
      ["/task", "reports.pages.task"],
    ],
  },
  ...REPORT_GROUPS.map((g) => ({
    key: `reports.groups.${g.key}`,
    items: g.reports.filter((r) => BUILT.has(r)).map((r) =>
      [`/new/${r}`, `reports.names.${r}`] as const
    ),
  })).filter((g) => g.items.length > 0),
  {
    key: "reports.groups.menu",
    items: REPORT_MENU_VIEWS.map((m) => [m.href, `reports.menu.${m.key}`] as const),
  },
];
