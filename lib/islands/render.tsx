/**
 * renderPage: a full HTML document with the body SSR-rendered, the props of the islands it
 * used, and the client scripts for exactly those islands.
 */
import type { VNode } from "preact";
import { renderToString } from "preact-render-to-string";
import { PROPS_SCRIPT_ID } from "./constants.ts";
import { withRenderContext } from "./context.ts";
import type { IslandManifest } from "./manifest.ts";
import { escapeJson } from "./serialize.ts";

export interface RenderPageOptions {
  title: string;
  lang: string;
  /** Extra head markup. A string is inserted verbatim (trusted markup only). */
  head?: VNode | string;
  manifest: IslandManifest;
  /** CSP nonce put on every script tag this function emits. */
  nonce?: string;
  bodyAttrs?: Record<string, string>;
}

const ATTR_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ATTR_ESCAPES[ch]);
}

const ATTR_NAME = /^[A-Za-z_:][A-Za-z0-9_.:\-]*$/;

function attrs(values: Record<string, string> | undefined): string {
  let out = "";
  for (const [name, value] of Object.entries(values ?? {})) {
    if (!ATTR_NAME.test(name)) throw new Error(`renderPage: invalid attribute name "${name}"`);
    out += ` ${name}="${escapeHtml(value)}"`;
  }
  return out;
}

/** The island URLs (and their chunks) the page needs, in a stable order. */
function pageAssets(manifest: IslandManifest, used: Set<string>) {
  const islands: Record<string, string> = {};
  const preload = new Set<string>();
  for (const name of [...used].sort()) {
    const url = manifest.islands[name];
    if (!url) {
      throw new Error(
        `Island "${name}" is not in the build manifest: its name must equal its path under ` +
          `islands/ without extension, and the build must be up to date`,
      );
    }
    islands[name] = url;
  }
  for (const url of [manifest.boot, ...Object.values(islands)]) {
    preload.add(url);
    for (const dep of manifest.preload?.[url] ?? []) preload.add(dep);
  }
  return { islands, preload: [...preload] };
}

export function renderPage(body: VNode, opts: RenderPageOptions): string {
  const { result: html, context } = withRenderContext(() => renderToString(body));
  const head = typeof opts.head === "string"
    ? opts.head
    : opts.head
    ? renderToString(opts.head)
    : "";
  const nonce = opts.nonce ? ` nonce="${escapeHtml(opts.nonce)}"` : "";

  let preloadLinks = "";
  let scripts = "";
  if (context.islands.size > 0) {
    const assets = pageAssets(opts.manifest, context.islands);
    for (const url of assets.preload) {
      preloadLinks += `<link rel="modulepreload" href="${escapeHtml(url)}"${nonce}>`;
    }
    // Props and island URLs as inert JSON; the boot script reads it (no inline JS needed).
    const islandsJson = escapeJson(JSON.stringify(assets.islands));
    scripts += `<script type="application/json" id="${PROPS_SCRIPT_ID}"${nonce}>` +
      `{"islands":${islandsJson},"props":[${context.props.join(",")}]}</script>`;
    scripts += `<script type="module" src="${escapeHtml(opts.manifest.boot)}"${nonce}></script>`;
  }

  return "<!DOCTYPE html>" +
    `<html lang="${escapeHtml(opts.lang)}">` +
    "<head>" +
    '<meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<title>${escapeHtml(opts.title)}</title>` +
    head +
    preloadLinks +
    "</head>" +
    `<body${attrs(opts.bodyAttrs)}>` +
    html +
    scripts +
    "</body></html>";
}
