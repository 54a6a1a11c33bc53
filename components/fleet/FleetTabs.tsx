import type { TFunction } from "i18next";

/** The fleet section's pages (spec business §2 Fleet), in the order of its tabs. */
export const FLEET_NAV = [
  ["/fleetIndex", "board"],
  ["/fleetDiver", "drivers"],
  ["/fleetVehicle", "vehicles"],
  ["/fleetRfid", "rfid"],
  ["/fleetPath", "routes"],
  ["/fleetReminder", "reminders"],
] as const;

/** The tabs above every fleet page; the current one is marked. */
export function FleetTabs({ t, path }: { t: TFunction; path: string }) {
  return (
    <nav class="fl-tabs" aria-label={t("shell.sections.fleet")}>
      {FLEET_NAV.map(([href, key]) => (
        <a
          key={href}
          href={href}
          class={path === href || (href === "/fleetPath" && path === "/addFleetPath")
            ? "active"
            : ""}
          aria-current={path === href ? "page" : undefined}
        >
          {t(`fleet.nav.${key}`)}
        </a>
      ))}
    </nav>
  );
}
