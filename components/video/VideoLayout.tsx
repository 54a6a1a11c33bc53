import type { ReactNode } from "react";
import type { PageContext } from "../../app/pages/context.ts";
import { Shell } from "../Shell.tsx";
import { VIDEO_NAV } from "./nav.ts";

/**
 * The video section's frame: the side navigation (Event, Live, History, Setting) and the page
 * with its title. Without the video permission the page body is the spec's refusal instead.
 */
export function VideoLayout({ ctx, title, children }: {
  ctx: PageContext;
  title: string;
  children: ReactNode;
}) {
  const { t } = ctx;
  return (
    <Shell ctx={ctx}>
      <div class="layout-side vd-layout">
        <nav class="sidenav vd-sidenav" aria-label={t("video.nav.label")}>
          <h4>{t("video.nav.label")}</h4>
          {VIDEO_NAV.map(([href, key]) => (
            <a
              key={href}
              href={href}
              class={ctx.path === href ? "active" : ""}
              aria-current={ctx.path === href ? "page" : undefined}
            >
              {t(`video.nav.${key}`)}
            </a>
          ))}
          <a href="/superVideo2024" class="vd-wall-link">{t("video.nav.wall")}</a>
        </nav>
        <section class="vd-page">
          <header class="vd-head">
            <h1>{title}</h1>
          </header>
          {children}
        </section>
      </div>
    </Shell>
  );
}

/** The spec's refusal (console §6): video playback needs the permission; ask the superior. */
export function VideoDenied({ ctx }: { ctx: PageContext }) {
  return (
    <div class="empty vd-denied" role="alert" data-testid="video-denied">
      <b>{ctx.t("errors.permissionDenied")}</b>
      <p>{ctx.t("video.denied")}</p>
    </div>
  );
}
