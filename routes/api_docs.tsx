import type { ApiRegistry } from "../lib/http/api.ts";
import type { PageKit } from "./mount.tsx";

interface Operation {
  tags: string[];
  summary: string;
  security: unknown[];
  /** application/json, or multipart/form-data for file uploads. */
  requestBody?: { content: Record<string, { schema: unknown }> };
  parameters?: { name: string; required: boolean; schema: unknown }[];
}

/** A readable reference of /v3/new/openapi.json, grouped by tag. */
export function registerApiDocs({ publicPage, renderer }: PageKit, api: ApiRegistry) {
  publicPage("/v3/new/docs", (c, ctx) => {
    const doc = api.openapi({ title: "Tracking Platform API", version: "3" }) as {
      paths: Record<string, Record<string, Operation>>;
    };
    const byTag = new Map<string, { method: string; path: string; op: Operation }[]>();
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        const list = byTag.get(op.tags[0]) ?? [];
        list.push({ method, path, op });
        byTag.set(op.tags[0], list);
      }
    }
    return renderer.html(
      c,
      ctx,
      "API",
      <main class="doc api-doc">
        <h1>Tracking Platform API</h1>
        <p>
          {ctx.t("pages.apiDocs.intro")} <a href="/v3/new/openapi.json">openapi.json</a>
        </p>
        {[...byTag.entries()].map(([tag, ops]) => (
          <section key={tag}>
            <h2>{tag}</h2>
            {ops.map(({ method, path, op }) => (
              <details key={method + path} class="api-op">
                <summary>
                  <code class={`method method-${method}`}>{method.toUpperCase()}</code>{" "}
                  <code>{path}</code> — {op.summary}
                  {op.security.length === 0 && (
                    <span class="badge">{ctx.t("pages.apiDocs.public")}</span>
                  )}
                </summary>
                {op.parameters && <pre>{JSON.stringify(op.parameters, null, 2)}</pre>}
                {op.requestBody &&
                  Object.entries(op.requestBody.content).map(([type, body]) => (
                    <pre key={type}>{type}: {JSON.stringify(body.schema, null, 2)}</pre>
                  ))}
              </details>
            ))}
          </section>
        ))}
      </main>,
    );
  });
}
