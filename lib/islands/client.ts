/**
 * Client boot: hydrates every top-level `<tp-island>` on the page.
 *
 * The page carries `<script type="application/json" id="__tp_props">` with
 * `{"islands": {name: url}, "props": [...]}`. Each top-level marker's data-props indexes
 * `props`; its island module is imported from `islands[name]` and the island's component
 * is hydrated straight into the marker (nested islands are part of that tree).
 */
import { h, hydrate } from "preact";
import { MARKER_TAG, PROPS_SCRIPT_ID } from "./constants.ts";
import { islandInfo } from "./island.tsx";
import { revive } from "./serialize.ts";

interface PageData {
  islands: Record<string, string>;
  props: unknown[];
}

function readPageData(doc: Document): PageData | null {
  const el = doc.getElementById(PROPS_SCRIPT_ID);
  if (!el?.textContent) return null;
  return JSON.parse(el.textContent) as PageData;
}

async function hydrateIsland(el: Element, data: PageData): Promise<void> {
  const name = el.getAttribute("data-island") ?? "";
  const url = data.islands[name];
  if (!url) throw new Error(`no module URL for island "${name}"`);
  const mod = await import(url);
  const info = islandInfo(mod.default);
  if (!info) throw new Error(`${url}: default export is not island("${name}", ...)`);
  if (info.name !== name) {
    throw new Error(`${url}: island named "${info.name}" but the page expects "${name}"`);
  }
  const props = revive(data.props[Number(el.getAttribute("data-props"))]);
  hydrate(h(info.Component, props as Record<string, unknown>), el);
}

/** Hydrates all islands; resolves when every island has hydrated or failed (failures logged). */
export async function boot(doc: Document = document): Promise<void> {
  const data = readPageData(doc);
  if (!data) return;
  const markers = [...doc.querySelectorAll(`${MARKER_TAG}[data-props]`)]
    // Nested islands hydrate as part of their outer island.
    .filter((el) => !el.parentElement?.closest(MARKER_TAG));
  const results = await Promise.allSettled(markers.map((el) => hydrateIsland(el, data)));
  for (const r of results) {
    if (r.status === "rejected") console.error("[islands] hydration failed:", r.reason);
  }
  doc.documentElement.setAttribute("data-islands", "hydrated");
}
