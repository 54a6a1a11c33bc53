import type { ComponentChildren } from "preact";
import type { PageKit } from "./mount.tsx";
import type { PageContext } from "../app/pages/context.ts";
import { Shell } from "../components/Shell.tsx";
import { FleetTabs } from "../components/fleet/FleetTabs.tsx";
import { FLEET_ACCOUNT_TYPES } from "../modules/fleet/model.ts";
import FleetBoard from "../islands/fleet/FleetBoard.tsx";
import DriverManager from "../islands/fleet/DriverManager.tsx";
import VehicleManager from "../islands/fleet/VehicleManager.tsx";
import SwipeList from "../islands/fleet/SwipeList.tsx";

/**
 * The fleet section (spec business §2 Fleet): /fleet → /fleetIndex (data board), /fleetDiver
 * (drivers), /fleetVehicle (vehicles), /fleetRfid (RFID swipes). Enterprise accounts and
 * administrators only (spec §6); anyone else is told to ask their superior.
 */
export function registerFleetPages({ app, privatePage, renderer }: PageKit) {
  app.get("/fleet", (c) => c.redirect("/fleetIndex"));
  const page = (path: string, titleKey: string, body: (ctx: PageContext) => ComponentChildren) =>
    privatePage(path, (c, ctx) =>
      renderer.html(
        c,
        ctx,
        ctx.t(titleKey),
        <Shell ctx={ctx}>
          <div class="page fl-page">
            <FleetTabs t={ctx.t} path={path} />
            {FLEET_ACCOUNT_TYPES.includes(ctx.user?.accountType ?? -1)
              ? body(ctx)
              : (
                <div class="empty fl-denied" role="alert">
                  {ctx.t("errors.enterpriseFeatureDenied")}
                </div>
              )}
          </div>
        </Shell>,
      ));
  page("/fleetIndex", "fleet.board.title", (ctx) => <FleetBoard lang={ctx.lang} />);
  page("/fleetDiver", "fleet.driver.title", (ctx) => <DriverManager lang={ctx.lang} />);
  page("/fleetVehicle", "fleet.vehicle.title", (ctx) => <VehicleManager lang={ctx.lang} />);
  page(
    "/fleetRfid",
    "fleet.rfid.title",
    (ctx) => <SwipeList lang={ctx.lang} timeZone={ctx.user?.timeZones || "UTC"} />,
  );
}
