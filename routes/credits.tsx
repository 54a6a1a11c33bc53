import type { PageKit } from "./mount.tsx";
import { SettingsLayout } from "../components/Shell.tsx";
import CreditsPage from "../islands/credits/CreditsPage.tsx";

/** The settings area's credits page (spec §2 wallet: /credits). */
export function registerCreditPages({ privatePage, renderer }: PageKit) {
  privatePage("/credits", (c, ctx) =>
    renderer.html(
      c,
      ctx,
      ctx.t("credits.title"),
      <SettingsLayout ctx={ctx}>
        <CreditsPage lang={ctx.lang} />
      </SettingsLayout>,
    ));
}
