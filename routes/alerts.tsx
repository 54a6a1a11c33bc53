import type { PageKit } from "./mount.tsx";
import type { ApiRegistry } from "../lib/http/api.ts";
import { SettingsLayout, Shell } from "../components/Shell.tsx";
import Editor from "../islands/geofences/Editor.tsx";
import AlertCenter from "../islands/alerts/AlertCenter.tsx";
import AlertSettings from "../islands/alerts/AlertSettings.tsx";
import MessageCenter from "../islands/alerts/MessageCenter.tsx";
import ForgotPassword from "../islands/auth/ForgotPassword.tsx";

/**
 * Pages of geofences, alerts and the message center. The spec names /settingAlert and
 * /settingMessages; the geofence editor and the alert centre get /geofence and /alertCenter
 * (docs/decisions.md), password recovery /forgotPassword.
 */
export function registerAlertPages(
  { privatePage, publicPage, renderer }: PageKit,
  api?: ApiRegistry,
) {
  const geocoderPath = forwardGeocoder(api);
  privatePage("/geofence", (c, ctx) =>
    renderer.html(
      c,
      ctx,
      ctx.t("geofences.title"),
      <Shell ctx={ctx}>
        <Editor
          lang={ctx.lang}
          isAdmin={ctx.user?.parentId === "" && !ctx.user.userFictitiousFlag}
          geocoderPath={geocoderPath}
        />
      </Shell>,
    ));
  privatePage("/alertCenter", (c, ctx) =>
    renderer.html(
      c,
      ctx,
      ctx.t("alerts.center.title"),
      <Shell ctx={ctx}>
        <div class="page">
          <AlertCenter lang={ctx.lang} />
        </div>
      </Shell>,
    ));
  privatePage("/settingAlert", (c, ctx) =>
    renderer.html(
      c,
      ctx,
      ctx.t("settings.items.settingAlert"),
      <SettingsLayout ctx={ctx}>
        <AlertSettings
          lang={ctx.lang}
          root={{
            id: ctx.user!.userId,
            account: ctx.user!.account,
            nickName: ctx.user!.nickName,
            accountType: ctx.user!.accountType,
          }}
        />
      </SettingsLayout>,
    ));
  privatePage("/settingMessages", (c, ctx) =>
    renderer.html(
      c,
      ctx,
      ctx.t("settings.items.settingMessages"),
      <SettingsLayout ctx={ctx}>
        <MessageCenter lang={ctx.lang} />
      </SettingsLayout>,
    ));
  publicPage("/forgotPassword", (c, ctx) => {
    if (ctx.user) return c.redirect("/mainFrame");
    return renderer.html(
      c,
      ctx,
      ctx.t("alerts.recovery.title"),
      <main class="login-page forgot-page">
        <section class="login-form-wrap">
          <ForgotPassword lang={ctx.lang} />
        </section>
      </main>,
    );
  });
}

/** The geocoder's forward place search (modules/geocoder), when the server registers one. */
export const GEOCODER_SEARCH_PATH = "/v3/new/geocoder/search";

function forwardGeocoder(api?: ApiRegistry): string | null {
  const route = api?.routes.find((r) => r.path === GEOCODER_SEARCH_PATH);
  return route?.method === "post" ? route.path : null;
}
