/**
 * Client boot: hydrates every top-level `<tp-island>` on the page.
 *
 * The page carries `<script type="application/json" id="__tp_props">` with
 * `{"islands": {name: url}, "props": [...]}`. Each top-level marker's data-props indexes
 * `props`; its island module is imported from `islands[name]` and the island's component
 * is hydrated straight into the marker (nested islands are part of that tree). Slot props
 * (server-rendered children) are added from the marker's own DOM (slots.tsx); islands inside a
 * slot are top-level islands of their own.
 */
import { h, hydrate } from "preact";
import { PROPS_SCRIPT_ID } from "./constants.ts";
import { islandInfo } from "./island.tsx";
import { revive } from "./serialize.ts";
import { adoptSlots, topLevelMarkers } from "./slots.tsx";

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
  const index = Number(el.getAttribute("data-props"));
  const props = revive(data.props[index]) as Record<string, unknown>;
  // Slots: captured before hydrating, so the island gets the server's nodes as they are.
  Object.assign(props, adoptSlots(el, index, (root) => void hydrateWithin(root, data)));
  hydrate(h(info.Component, props), el);
}

/** Hydrates the top-level islands under `root`; failures are logged, not thrown. */
async function hydrateWithin(root: ParentNode, data: PageData): Promise<void> {
  const markers = topLevelMarkers(root);
  const results = await Promise.allSettled(markers.map((el) => hydrateIsland(el, data)));
  for (const r of results) {
    if (r.status === "rejected") console.error("[islands] hydration failed:", r.reason);
  }
}

/** Hydrates all islands; resolves when every island has hydrated or failed (failures logged). */
export async function boot(doc: Document = document): Promise<void> {
  const data = readPageData(doc);
  if (!data) return;
  await hydrateWithin(doc, data);
  doc.documentElement.setAttribute("data-islands", "hydrated");
}
