import type { Context } from "hono";
import type { ComponentChildren } from "preact";
import type { PageKit } from "./mount.tsx";
import type { AppEnv } from "../lib/http/env.ts";
import type { PageContext } from "../app/pages/context.ts";
import { VideoDenied, VideoLayout } from "../components/video/VideoLayout.tsx";
import { DEVICE_MODELS } from "../modules/devices/models.ts";
import EventVideo from "../islands/video/EventVideo.tsx";
import LiveVideo from "../islands/video/LiveVideo.tsx";
import HistoryVideo from "../islands/video/HistoryVideo.tsx";
import VideoSettings from "../islands/video/VideoSettings.tsx";
import OpenVideo from "../islands/video/OpenVideo.tsx";
import VideoWall from "../islands/video/VideoWall.tsx";

/** Models whose terminals speak JT/T 808, over which JT/T 1078 video is signalled. */
const VIDEO_MODELS = DEVICE_MODELS.filter((m) => m.protocol === "jt808").map((m) => m.mcType);

const canPlay = (ctx: PageContext) => ctx.user?.videoFlag === 1;
const zoneOf = (ctx: PageContext) => ctx.user?.timeZones || "UTC";
const imeiOf = (c: Context<AppEnv>) => {
  const v = c.req.query("imei") ?? "";
  return /^\d{15}$/.test(v) ? v : undefined;
};
/** A public link's token: URL-safe characters only, bounded. */
const tokenOf = (c: Context<AppEnv>) =>
  (c.req.query("token") ?? "").replace(/[^A-Za-z0-9_-]/g, "").slice(0, 128);

/**
 * The video section (spec business §2 Video, console §2): /eventVideo (and /video → there),
 * /live, /historyVideo, /settings; the public /openLive and /openHistory links; the full-screen
 * wall /superVideo2024. Without the video permission the pages that play (all but /settings)
 * show the spec's refusal and load no player.
 */
export function registerVideoPages({ app, privatePage, publicPage, renderer }: PageKit) {
  app.get("/video", (c) => c.redirect("/eventVideo"));
  const page = (
    path: string,
    titleKey: string,
    body: (c: Context<AppEnv>, ctx: PageContext) => ComponentChildren,
    plays = true,
  ) =>
    privatePage(path, (c, ctx) => {
      const allowed = !plays || canPlay(ctx);
      return renderer.html(
        c,
        ctx,
        ctx.t(titleKey),
        <VideoLayout ctx={ctx} title={ctx.t(titleKey)}>
          {allowed ? body(c, ctx) : <VideoDenied ctx={ctx} />}
        </VideoLayout>,
        allowed ? 200 : 403,
      );
    });

  page(
    "/eventVideo",
    "video.pages.event",
    (_c, ctx) => <EventVideo lang={ctx.lang} models={VIDEO_MODELS} timeZone={zoneOf(ctx)} />,
  );
  page(
    "/live",
    "video.pages.live",
    (c, ctx) => <LiveVideo lang={ctx.lang} models={VIDEO_MODELS} imei={imeiOf(c)} />,
  );
  page(
    "/historyVideo",
    "video.pages.history",
    (c, ctx) => (
      <HistoryVideo lang={ctx.lang} models={VIDEO_MODELS} timeZone={zoneOf(ctx)} imei={imeiOf(c)} />
    ),
  );
  // Settings and camera nicknames play nothing: open to every user.
  page(
    "/settings",
    "video.pages.settings",
    (_c, ctx) => <VideoSettings lang={ctx.lang} models={VIDEO_MODELS} />,
    false,
  );

  for (const [path, kind] of [["/openLive", "live"], ["/openHistory", "history"]] as const) {
    publicPage(path, (c, ctx) =>
      renderer.html(
        c,
        ctx,
        ctx.t(`video.open.${kind}Title`),
        <PublicFrame ctx={ctx}>
          {tokenOf(c)
            ? <OpenVideo lang={ctx.lang} kind={kind} token={tokenOf(c)} />
            : <p class="empty" role="alert">{ctx.t("video.state.linkExpired")}</p>}
        </PublicFrame>,
      ));
  }

  // Listed as public by the console spec; it plays only for a logged-in user with the video
  // permission, so a visitor is asked to log in (and comes back here afterwards).
  publicPage("/superVideo2024", (c, ctx) => {
    const title = ctx.t("video.wall.title");
    if (!ctx.user) {
      return renderer.html(
        c,
        ctx,
        title,
        <PublicFrame ctx={ctx}>
          <div class="empty vd-login" role="alert" data-testid="wall-login">
            <p>{ctx.t("video.wall.login")}</p>
            <a class="btn btn-primary" href="/login?redirect=%2FsuperVideo2024">
              {ctx.t("video.wall.loginButton")}
            </a>
          </div>
        </PublicFrame>,
      );
    }
    if (!canPlay(ctx)) {
      return renderer.html(
        c,
        ctx,
        title,
        <PublicFrame ctx={ctx}>
          <VideoDenied ctx={ctx} />
        </PublicFrame>,
        403,
      );
    }
    return renderer.html(c, ctx, title, <VideoWall lang={ctx.lang} models={VIDEO_MODELS} />);
  });
}

/** Public pages: the white label's name over the content, no console shell. */
function PublicFrame({ ctx, children }: { ctx: PageContext; children: ComponentChildren }) {
  return (
    <div class="vd-public">
      <header class="vd-public-bar">
        <span class="logo-dot" aria-hidden="true">◎</span>
        <span>{ctx.domain.domainTitle}</span>
        {ctx.user && <a class="vd-wall-back" href="/mainFrame">{ctx.t("video.wall.back")}</a>}
      </header>
      <main class="vd-public-main">{children}</main>
    </div>
  );
}
