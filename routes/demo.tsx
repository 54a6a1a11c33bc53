import type { PageKit } from "./mount.tsx";
import type { PageContext } from "../app/pages/context.ts";
import { Shell } from "../components/Shell.tsx";
import { NoPermissionPage } from "./status.tsx";
import ApplyForm from "../islands/demo/ApplyForm.tsx";
import SetPasswordForm from "../islands/demo/SetPasswordForm.tsx";
import ReviewList from "../islands/demo/ReviewList.tsx";
import { imageUrl } from "../modules/domains/store.ts";
import { ACCOUNT_TYPES } from "../modules/accounts/model.ts";
import type { ReactNode } from "react";

/**
 * Demo accounts (spec console §1, §2): the public application /accountApply, the mailed
 * link's /demoPassword, and the administrators' review /demoApplications (accounts area).
 */
export function registerDemoPages({ publicPage, privatePage, renderer, services }: PageKit) {
  const days = () => services.config.DEMO_TRIAL_DAYS;

  publicPage("/accountApply", (c, ctx) =>
    renderer.html(
      c,
      ctx,
      ctx.t("demo.apply.title"),
      <PublicFrame ctx={ctx}>
        <ApplyForm lang={ctx.lang} days={days()} />
      </PublicFrame>,
    ));

  publicPage("/demoPassword", (c, ctx) => {
    const token = c.req.query("token") ?? "";
    return renderer.html(
      c,
      ctx,
      ctx.t("demo.password.title"),
      <PublicFrame ctx={ctx}>
        <SetPasswordForm lang={ctx.lang} token={/^[\w-]{20,64}$/.test(token) ? token : ""} />
      </PublicFrame>,
    );
  });

  privatePage("/demoApplications", (c, ctx) => {
    const user = ctx.user!;
    if (user.accountType !== ACCOUNT_TYPES.administrator || user.userFictitiousFlag) {
      return renderer.html(
        c,
        ctx,
        ctx.t("pages.noPermission.title"),
        <NoPermissionPage ctx={ctx} />,
        403,
      );
    }
    return renderer.html(
      c,
      ctx,
      ctx.t("demo.review.title"),
      <Shell ctx={ctx}>
        <div class="page">
          <ReviewList lang={ctx.lang} days={days()} />
        </div>
      </Shell>,
    );
  });
}

/** The login page's frame (brand art beside the form) around a public demo form. */
function PublicFrame({ ctx, children }: { ctx: PageContext; children: ReactNode }) {
  const { t, domain } = ctx;
  const background = imageUrl(domain, "attr1");
  const illustration = imageUrl(domain, "demoPageIllustration");
  const logo = imageUrl(domain, "domainLogin");
  const brand = (
    <>
      {logo ? <img src={logo} alt="" /> : <span class="logo-dot" aria-hidden="true">◎</span>}
      <span>{domain.domainTitle}</span>
    </>
  );
  return (
    <main class="login-page demo-page">
      <section
        class="login-art"
        style={background ? { backgroundImage: `url("${encodeURI(background)}")` } : undefined}
      >
        <div class="brand">{brand}</div>
        <div>
          <h1>{t("demo.apply.title")}</h1>
          <ul class="demo-pitch">
            <li>{t("demo.apply.pitch1")}</li>
            <li>{t("demo.apply.pitch2")}</li>
            <li>{t("demo.apply.pitch3")}</li>
          </ul>
        </div>
        {illustration ? <img class="art-map" src={illustration} alt="" /> : <span />}
        <small>© {new Date().getFullYear()} {domain.domainTitle}</small>
      </section>
      <section class="login-form-wrap">
        <div>
          <div class="login-mobile-brand">{brand}</div>
          {children}
        </div>
      </section>
    </main>
  );
}
