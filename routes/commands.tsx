import type { PageKit } from "./mount.tsx";
import { SettingsLayout } from "../components/Shell.tsx";
import { COMMAND_NAV } from "../components/commands/nav.ts";

/** Settings-area pages of the command area (spec §2). */
export function registerCommandPages({ privatePage, renderer }: PageKit) {
  for (const [path, key] of COMMAND_NAV) {
    privatePage(path, (c, ctx) =>
      renderer.html(
        c,
        ctx,
        ctx.t(`settings.items.${key}`),
        <SettingsLayout ctx={ctx}>
          <div class="panel" />
        </SettingsLayout>,
      ));
  }
}
