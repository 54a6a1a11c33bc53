import type { PageKit } from "./mount.tsx";
import { SettingsLayout } from "../components/Shell.tsx";
import AppKeys from "../islands/openapi/AppKeys.tsx";
import PushEndpoints from "../islands/openapi/PushEndpoints.tsx";
import { OPEN_CODES } from "../modules/openapi/types.ts";
import { exampleCall, REFERENCE, SAMPLE } from "../modules/openapi/reference.ts";

/** Common parameters of every `/route/rest` call, as the public documents give them. */
const COMMON: [string, string][] = [
  ["method", "the method name, e.g. jimi.user.device.list"],
  ["timestamp", "UTC yyyy-MM-dd HH:mm:ss, within ±10 minutes of the server"],
  ["app_key", "the app key"],
  ["sign_method", "md5"],
  ["v", "1.0 (0.9 unsigned: refused unless OPENAPI_ALLOW_UNSIGNED=on)"],
  ["format", "json"],
  ["access_token", "from jimi.oauth.token.get (not for the jimi.oauth.* methods)"],
  ["sign", "the signature (below)"],
];

/** The app keys settings page and the readable `/route/rest` reference (issue 22). */
export function registerOpenApiPages({ publicPage, privatePage, renderer, services }: PageKit) {
  privatePage("/openApiKeys", (c, ctx) =>
    renderer.html(
      c,
      ctx,
      ctx.t("settings.items.openApiKeys"),
      <SettingsLayout ctx={ctx}>
        <AppKeys lang={ctx.lang} />
        <PushEndpoints lang={ctx.lang} />
      </SettingsLayout>,
    ));

  publicPage("/openApiDocs", (c, ctx) => {
    const t = ctx.t;
    const base = new URL(c.req.url).origin;
    const cfg = services.config;
    const codes = [...new Set(Object.values(OPEN_CODES))].sort((a, b) => a - b);
    return renderer.html(
      c,
      ctx,
      t("openapi.docs.title"),
      <main class="doc api-doc openapi-doc">
        <h1>{t("openapi.docs.title")}</h1>
        <p>{t("openapi.docs.intro")}</p>
        <h2>{t("openapi.docs.endpoint")}</h2>
        <pre>POST {base}/route/rest (application/x-www-form-urlencoded; charset=UTF-8 | application/json)</pre>
        <h2>{t("openapi.docs.common")}</h2>
        <table class="data">
          <thead>
            <tr>
              <th>{t("openapi.docs.param")}</th>
              <th>{t("openapi.docs.meaning")}</th>
            </tr>
          </thead>
          <tbody>
            {COMMON.map(([k, v]) => (
              <tr key={k}>
                <td>
                  <code>{k}</code>
                </td>
                <td>{v}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <h2>{t("openapi.docs.signing")}</h2>
        <p>{t("openapi.docs.signSteps")}</p>
        <h2>{t("openapi.docs.limits")}</h2>
        <p>
          {t("openapi.docs.limitsText", {
            rate: cfg.OPENAPI_KEY_RATE,
            burst: cfg.OPENAPI_KEY_BURST,
            ip: cfg.OPENAPI_IP_RATE,
          })}
        </p>
        <h2>{t("openapi.docs.bearer")}</h2>
        <p>{t("openapi.docs.bearerText")}</p>
        <h2 id="codes">{t("openapi.docs.codes")}</h2>
        <table class="data openapi-codes">
          <thead>
            <tr>
              <th>{t("openapi.docs.code")}</th>
              <th>{t("openapi.docs.meaning")}</th>
            </tr>
          </thead>
          <tbody>
            {codes.map((code) => (
              <tr key={code} data-code={code}>
                <td>
                  <code>{code}</code>
                </td>
                <td>{t(`openapi.codes.${code}`)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <h2>{t("openapi.docs.methods")}</h2>
        <p>
          {t("openapi.docs.exampleKey", {
            key: SAMPLE.appKey,
            secret: SAMPLE.secret,
            time: SAMPLE.timestamp,
          })}
        </p>
        <nav class="openapi-toc">
          {REFERENCE.map((m) => <a key={m.name} href={`#${m.name}`}>{m.name}</a>)}
        </nav>
        {REFERENCE.map((m) => {
          const ex = exampleCall(m, base);
          return (
            <section key={m.name} id={m.name} class="openapi-method">
              <h3>
                <code>{m.name}</code>
              </h3>
              <p>{m.description}</p>
              <h4>{t("openapi.docs.parameters")}</h4>
              <ul>
                {Object.entries(m.params).map(([k, v]) => (
                  <li key={k}>
                    <code>{k}</code> — {v}
                  </li>
                ))}
              </ul>
              <h4>{t("openapi.docs.example")}</h4>
              <pre>{ex.curl}</pre>
              <p>{t("openapi.docs.stepSorted")}</p>
              <pre>{ex.sorted.map(([k, v]) => `${k}=${v}`).join("\n")}</pre>
              <p>{t("openapi.docs.stepText")}</p>
              <pre class="openapi-sign-text">{ex.text}</pre>
              <p>{t("openapi.docs.stepSign")}</p>
              <pre>{ex.sign}</pre>
              <h4>{t("openapi.docs.answer")}</h4>
              <pre>{JSON.stringify({ code: 0, message: "success", ...m.answer }, null, 2)}</pre>
            </section>
          );
        })}
      </main>,
    );
  });
}
