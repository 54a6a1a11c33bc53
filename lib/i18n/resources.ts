/**
 * Translation resources, one JSON file per area and language: locales/<lang>/<area>.json
 * becomes the top-level key <area>. Imported statically so bundles and the compiled binary
 * carry them. Add a new area to both languages and to the lists below.
 */
import en_common from "../../locales/en/common.json" with { type: "json" };
import en_errors from "../../locales/en/errors.json" with { type: "json" };
import en_nodes from "../../locales/en/nodes.json" with { type: "json" };
import en_validation from "../../locales/en/validation.json" with { type: "json" };
import en_ui from "../../locales/en/ui.json" with { type: "json" };
import en_shell from "../../locales/en/shell.json" with { type: "json" };
import en_login from "../../locales/en/login.json" with { type: "json" };
import en_accounts from "../../locales/en/accounts.json" with { type: "json" };
import en_settings from "../../locales/en/settings.json" with { type: "json" };
import en_domains from "../../locales/en/domains.json" with { type: "json" };
import en_release from "../../locales/en/release.json" with { type: "json" };
import en_pages from "../../locales/en/pages.json" with { type: "json" };
import en_devices from "../../locales/en/devices.json" with { type: "json" };
import en_monitor from "../../locales/en/monitor.json" with { type: "json" };
import en_alerts from "../../locales/en/alerts.json" with { type: "json" };
import en_geofences from "../../locales/en/geofences.json" with { type: "json" };
import en_commands from "../../locales/en/commands.json" with { type: "json" };
import en_geocoder from "../../locales/en/geocoder.json" with { type: "json" };
import en_reports from "../../locales/en/reports.json" with { type: "json" };
import en_wallet from "../../locales/en/wallet.json" with { type: "json" };
import en_credits from "../../locales/en/credits.json" with { type: "json" };
import en_demo from "../../locales/en/demo.json" with { type: "json" };
import en_openapi from "../../locales/en/openapi.json" with { type: "json" };
import en_help from "../../locales/en/help.json" with { type: "json" };
import en_fleetPaths from "../../locales/en/fleetPaths.json" with { type: "json" };
import en_fleetReminders from "../../locales/en/fleetReminders.json" with { type: "json" };
import en_fleet from "../../locales/en/fleet.json" with { type: "json" };
import en_autoReports from "../../locales/en/autoReports.json" with { type: "json" };
import en_video from "../../locales/en/video.json" with { type: "json" };
import zh_common from "../../locales/zh/common.json" with { type: "json" };
import zh_errors from "../../locales/zh/errors.json" with { type: "json" };
import zh_nodes from "../../locales/zh/nodes.json" with { type: "json" };
import zh_validation from "../../locales/zh/validation.json" with { type: "json" };
import zh_ui from "../../locales/zh/ui.json" with { type: "json" };
import zh_shell from "../../locales/zh/shell.json" with { type: "json" };
import zh_login from "../../locales/zh/login.json" with { type: "json" };
import zh_accounts from "../../locales/zh/accounts.json" with { type: "json" };
import zh_settings from "../../locales/zh/settings.json" with { type: "json" };
import zh_domains from "../../locales/zh/domains.json" with { type: "json" };
import zh_release from "../../locales/zh/release.json" with { type: "json" };
import zh_pages from "../../locales/zh/pages.json" with { type: "json" };
import zh_devices from "../../locales/zh/devices.json" with { type: "json" };
import zh_monitor from "../../locales/zh/monitor.json" with { type: "json" };
import zh_alerts from "../../locales/zh/alerts.json" with { type: "json" };
import zh_geofences from "../../locales/zh/geofences.json" with { type: "json" };
import zh_commands from "../../locales/zh/commands.json" with { type: "json" };
import zh_geocoder from "../../locales/zh/geocoder.json" with { type: "json" };
import zh_reports from "../../locales/zh/reports.json" with { type: "json" };
import zh_wallet from "../../locales/zh/wallet.json" with { type: "json" };
import zh_credits from "../../locales/zh/credits.json" with { type: "json" };
import zh_demo from "../../locales/zh/demo.json" with { type: "json" };
import zh_openapi from "../../locales/zh/openapi.json" with { type: "json" };
import zh_help from "../../locales/zh/help.json" with { type: "json" };
import zh_fleetPaths from "../../locales/zh/fleetPaths.json" with { type: "json" };
import zh_fleetReminders from "../../locales/zh/fleetReminders.json" with { type: "json" };
import zh_fleet from "../../locales/zh/fleet.json" with { type: "json" };
import zh_autoReports from "../../locales/zh/autoReports.json" with { type: "json" };
import zh_video from "../../locales/zh/video.json" with { type: "json" };

export const RESOURCES = {
  en: {
    common: en_common,
    errors: en_errors,
    nodes: en_nodes,
    validation: en_validation,
    ui: en_ui,
    shell: en_shell,
    login: en_login,
    accounts: en_accounts,
    settings: en_settings,
    domains: en_domains,
    release: en_release,
    pages: en_pages,
    devices: en_devices,
    monitor: en_monitor,
    alerts: en_alerts,
    geofences: en_geofences,
    commands: en_commands,
    geocoder: en_geocoder,
    reports: en_reports,
    wallet: en_wallet,
    credits: en_credits,
    demo: en_demo,
    openapi: en_openapi,
    help: en_help,
    fleetPaths: en_fleetPaths,
    fleetReminders: en_fleetReminders,
    fleet: en_fleet,
    autoReports: en_autoReports,
    video: en_video,
  },
  zh: {
    common: zh_common,
    errors: zh_errors,
    nodes: zh_nodes,
    validation: zh_validation,
    ui: zh_ui,
    shell: zh_shell,
    login: zh_login,
    accounts: zh_accounts,
    settings: zh_settings,
    domains: zh_domains,
    release: zh_release,
    pages: zh_pages,
    devices: zh_devices,
    monitor: zh_monitor,
    alerts: zh_alerts,
    geofences: zh_geofences,
    commands: zh_commands,
    geocoder: zh_geocoder,
    reports: zh_reports,
    wallet: zh_wallet,
    credits: zh_credits,
    demo: zh_demo,
    openapi: zh_openapi,
    help: zh_help,
    fleetPaths: zh_fleetPaths,
    fleetReminders: zh_fleetReminders,
    fleet: zh_fleet,
    autoReports: zh_autoReports,
    video: zh_video,
  },
};
