import type { PageKit } from "./mount.tsx";
import { isOldBrowser, type PageContext } from "../app/pages/context.ts";
import LoginForm from "../islands/auth/LoginForm.tsx";
import { imageUrl } from "../modules/domains/store.ts";
import { safeRedirect } from "../modules/auth/redirect.ts";

/** Public routes of spec §2 built so far: /login and /agreements. */
export function registerPublicPages({ publicPage, renderer, services }: PageKit) {
  publicPage("/login", (c, ctx) => {
    // The target is attacker-controlled: only a path of this origin is rendered or followed.
    const redirect = safeRedirect(c.req.query("redirect"), new URL(c.req.url).origin);
    if (ctx.user) return c.redirect(redirect);
    const oldBrowser = isOldBrowser(c.req.header("user-agent") ?? "");
    return renderer.html(
      c,
      ctx,
      ctx.t("login.title"),
      <LoginPage
        ctx={ctx}
        oldBrowser={oldBrowser}
        captchaEnabled={services.config.CAPTCHA === "on"}
        redirect={redirect}
      />,
    );
  });

  publicPage(
    "/agreements",
    (c, ctx) => renderer.html(c, ctx, ctx.t("pages.agreements.title"), <Agreements ctx={ctx} />),
  );
}

function LoginPage(
  { ctx, oldBrowser, captchaEnabled, redirect }: {
    ctx: PageContext;
    oldBrowser: boolean;
    captchaEnabled: boolean;
    redirect: string;
  },
) {
  const { t, domain } = ctx;
  const background = imageUrl(domain, "attr1");
  const illustration = imageUrl(domain, "loginPageIllustration");
  const logo = imageUrl(domain, "domainLogin");
  return (
    <main class="login-page">
      <section
        class="login-art"
        style={background ? { backgroundImage: `url("${encodeURI(background)}")` } : undefined}
      >
        <div class="brand">
          {logo ? <img src={logo} alt="" /> : <span class="logo-dot" aria-hidden="true">◎</span>}
          <span>{domain.domainTitle}</span>
        </div>
        <div>
          <h1>{t("login.headline")}</h1>
          <p>{t("login.pitch")}</p>
        </div>
        {illustration ? <img class="art-map" src={illustration} alt="" /> : <RouteArt />}
        <small>© {new Date().getFullYear()} {domain.domainTitle}</small>
      </section>
      <section class="login-form-wrap">
        <div>
          <div class="login-mobile-brand">
            {logo ? <img src={logo} alt="" /> : <span class="logo-dot" aria-hidden="true">◎</span>}
            <span>{domain.domainTitle}</span>
          </div>
          {oldBrowser && <div class="notice" role="note">{t("login.oldBrowser")}</div>}
          <LoginForm lang={ctx.lang} captchaEnabled={captchaEnabled} redirect={redirect} />
        </div>
      </section>
    </main>
  );
}

/** A decorative route drawing for login pages without an illustration. */
function RouteArt() {
  return (
    <svg class="art-map" viewBox="0 0 400 300" aria-hidden="true">
      <path
        d="M20 260 C 80 200, 120 240, 170 170 S 260 60, 380 40"
        fill="none"
        stroke="#fff"
        stroke-width="6"
        stroke-linecap="round"
        stroke-dasharray="2 14"
      />
      <circle cx="20" cy="260" r="12" fill="#fff" />
      <circle cx="380" cy="40" r="16" fill="none" stroke="#fff" stroke-width="6" />
      <circle cx="170" cy="170" r="8" fill="#fff" />
    </svg>
  );
}

function Agreements({ ctx }: { ctx: PageContext }) {
  const { t, domain } = ctx;
  const sections = ["service", "accounts", "data", "privacy", "cookies", "changes"] as const;
  return (
    <main class="doc">
      <p>
        <a href="/login">← {t("login.backToLogin")}</a>
      </p>
      <h1>{t("pages.agreements.title")}</h1>
      <p>{t("pages.agreements.intro", { title: domain.domainTitle })}</p>
      {sections.map((s) => (
        <section key={s}>
          <h2>{t(`pages.agreements.${s}.title`)}</h2>
          <p>{t(`pages.agreements.${s}.text`)}</p>
        </section>
      ))}
    </main>
  );
}
