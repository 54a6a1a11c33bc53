import type { PageContext } from "../app/pages/context.ts";
import { Shell } from "../components/Shell.tsx";
import BackLink from "../islands/shell/BackLink.tsx";

/** The shared layout of the status pages: a big code, a title, a text, back and home. */
function StatusPage(
  { ctx, code, page }: { ctx: PageContext; code: number; page: "notFound" | "noPermission" },
) {
  const { t } = ctx;
  return (
    <div class="status-page">
      <div>
        <div class="code">{code}</div>
        <h1>{t(`pages.${page}.title`)}</h1>
        <p>{t(`pages.${page}.text`)}</p>
        <div class="actions">
          <BackLink lang={ctx.lang} />
          <a class="btn btn-primary" href="/">{t("pages.notFound.home")}</a>
        </div>
      </div>
    </div>
  );
}

/** Spec §2: the 404 page says the location does not exist or is under maintenance. */
export function NotFoundPage({ ctx }: { ctx: PageContext }) {
  const body = <StatusPage ctx={ctx} code={404} page="notFound" />;
  return ctx.user ? <Shell ctx={ctx}>{body}</Shell> : body;
}

export function NoPermissionPage({ ctx }: { ctx: PageContext }) {
  return (
    <Shell ctx={ctx}>
      <StatusPage ctx={ctx} code={403} page="noPermission" />
    </Shell>
  );
}
