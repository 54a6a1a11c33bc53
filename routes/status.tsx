import type { PageContext } from "../lib/pages/context.ts";
import { Shell } from "../components/Shell.tsx";
import BackLink from "../islands/BackLink.tsx";

/** Spec §2: the 404 page says the location does not exist or is under maintenance. */
export function NotFoundPage({ ctx }: { ctx: PageContext }) {
  const { t } = ctx;
  const body = (
    <div class="status-page">
      <div>
        <div class="code">404</div>
        <h1>{t("pages.notFound.title")}</h1>
        <p>{t("pages.notFound.text")}</p>
        <div class="actions">
          <BackLink lang={ctx.lang} />
          <a class="btn btn-primary" href="/">{t("pages.notFound.home")}</a>
        </div>
      </div>
    </div>
  );
  return ctx.user ? <Shell ctx={ctx}>{body}</Shell> : body;
}

export function NoPermissionPage({ ctx }: { ctx: PageContext }) {
  const { t } = ctx;
  return (
    <Shell ctx={ctx}>
      <div class="status-page">
        <div>
          <div class="code">403</div>
          <h1>{t("pages.noPermission.title")}</h1>
          <p>{t("pages.noPermission.text")}</p>
          <div class="actions">
            <BackLink lang={ctx.lang} />
            <a class="btn btn-primary" href="/">{t("pages.notFound.home")}</a>
          </div>
        </div>
      </div>
    </Shell>
  );
}
