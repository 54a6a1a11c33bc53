/**
 * The console's navigation: top-level sections and the settings area's groups. Shared by the
 * server shell (top bar, settings side navigation) and the phone navigation drawer (an
 * island), so it holds constants only.
 */
import { COMMAND_NAV, COMMAND_PAGES } from "./commands/nav.ts";
import { REPORT_SECTION_PATHS } from "./reports/nav.ts";
import { VIDEO_SECTION_PATHS } from "./video/nav.ts";

/** The settings area's wallet group (spec: /settingMiCoins, /credits; the business centre). */
export const WALLET_NAV = [
  ["/settingMiCoins", "settingMiCoins"],
  ["/businessCenter", "businessCenter"],
  ["/credits", "credits"],
] as const;
const WALLET_PAGES = WALLET_NAV.map(([href]) => href);

export type SectionKey =
  | "monitor"
  | "accounts"
  | "devices"
  | "geofences"
  | "alerts"
  | "reports"
  | "fleet"
  | "video"
  | "settings"
  | "domains";

export interface Section {
  key: SectionKey;
  /** Where the section's link goes. */
  href: string;
  /** Path prefixes that belong to the section (its link is marked active on them). */
  paths: readonly string[];
  adminOnly?: boolean;
  /** Shown only with the view-reports permission (viewReportFlag). */
  reportsOnly?: boolean;
  /** Shown only to enterprise accounts and administrators (spec §6: fleet is for enterprises). */
  fleetOnly?: boolean;
}

/** Top-level sections that exist today. */
export const SECTIONS: readonly Section[] = [
  { key: "monitor", href: "/monitorObject", paths: ["/monitor"] },
  { key: "accounts", href: "/account", paths: ["/account", "/demoApplications"] },
  { key: "devices", href: "/devices", paths: ["/devices"] },
  { key: "geofences", href: "/geofence", paths: ["/geofence"] },
  { key: "alerts", href: "/alertCenter", paths: ["/alertCenter"] },
  { key: "reports", href: "/deviceOverview", paths: REPORT_SECTION_PATHS, reportsOnly: true },
  { key: "fleet", href: "/fleetIndex", paths: ["/fleet", "/addFleetPath"], fleetOnly: true },
  { key: "video", href: "/eventVideo", paths: VIDEO_SECTION_PATHS },
  {
    key: "settings",
    href: "/myProfile",
    paths: [
      "/allSettings",
      "/myProfile",
      "/changePassword",
      "/embedMap",
      "/openApiKeys",
      "/loginLogs",
      "/releaseNotes",
      "/userManual",
      "/businessLogs",
      "/announcements",
      "/settingAlert",
      "/settingMessages",
      "/modelNameAlias",
      ...WALLET_PAGES,
      ...COMMAND_PAGES,
    ],
  },
  { key: "domains", href: "/addDomain", paths: ["/addDomain"], adminOnly: true },
];

/** The monitor's pages (spec: /monitorObject, /monitorEvent, /monitorPlayback). */
export const MONITOR_NAV = [
  ["/monitorObject", "object"],
  ["/monitorEvent", "event"],
  ["/monitorPlayback", "playback"],
] as const;

/** The settings area's side navigation (spec §2 settings routes that exist). */
export const SETTINGS_GROUPS = [
  {
    key: "personal",
    items: [
      ["/myProfile", "profile"],
      ["/changePassword", "changePassword"],
      ["/modelNameAlias", "modelNameAlias"],
      ["/embedMap", "embedMap"],
      ["/openApiKeys", "openApiKeys"],
    ],
  },
  { key: "commands", items: COMMAND_NAV },
  {
    key: "messages",
    items: [
      ["/settingAlert", "settingAlert"],
      ["/settingMessages", "settingMessages"],
      ["/announcements", "announcements"],
    ],
  },
  { key: "wallet", items: WALLET_NAV },
  {
    key: "help",
    items: [
      ["/userManual", "userManual"],
      ["/businessLogs", "businessLogs"],
      ["/loginLogs", "loginLogs"],
      ["/releaseNotes", "releaseNotes"],
    ],
  },
] as const;

/**
 * The sections a user sees: White label only for the administrator (account type 0), Reports
 * only with the view-reports permission.
 */
export const sectionsFor = (accountType: number | undefined, viewReports = false) =>
  SECTIONS.filter((s) =>
    (!s.adminOnly || accountType === 0) && (!s.reportsOnly || viewReports) &&
    (!s.fleetOnly || accountType === 0 || accountType === 9)
  );

export const isActive = (s: Section, path: string) => s.paths.some((p) => path.startsWith(p));
