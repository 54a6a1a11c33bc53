/**
 * Slots: children rendered on the server and handed to an island, as Fresh does.
 *
 * A top-level island's `children` (and the props it declares in `island(name, C, { slots })`)
 * are not serialized. The server renders each one where the island puts it, wrapped in
 * `<tp-slot data-slot=name data-for=index>`; a slot the island did not render (e.g. a closed
 * panel) goes into a trailing `<template data-slot data-for>`, so its HTML exists for later.
 * Slot content is rendered outside the island's client tree: an island inside it is a top-level
 * island of its own (own props, own hydration).
 *
 * On the client the slot prop becomes a ClientSlot that owns the server's DOM nodes: hydration
 * leaves them untouched, and if the island later unmounts and re-mounts the slot the same nodes
 * (with any island inside them still hydrated) move back in. Nothing is re-rendered from props.
 */
import { type ComponentChild, type ComponentChildren, createContext, h } from "preact";
import { useLayoutEffect, useRef } from "preact/hooks";
import { MARKER_TAG, SLOT_OWNER_ATTR, SLOT_TAG } from "./constants.ts";

/** True while rendering inside a top-level island's client tree (server side). */
export const InsideIsland = createContext(false);

/** A slot holds something to render: not undefined, null or a boolean (`{cond && <X />}`). */
export function hasContent(value: unknown): boolean {
  return value !== undefined && value !== null && typeof value !== "boolean";
}

/** Server: which slots one island got and which of them it rendered. */
export interface SlotRecord {
  island: string;
  owner: number;
  content: Map<string, ComponentChildren>;
  rendered: Set<string>;
}

function slotAttrs(name: string, owner: number): Record<string, string> {
  return { "data-slot": name, [SLOT_OWNER_ATTR]: String(owner) };
}

/** Server: where the island renders the slot; the content renders as top-level page markup. */
export function ServerSlot({ record, name }: { record: SlotRecord; name: string }): ComponentChild {
  if (record.rendered.has(name)) {
    throw new Error(
      `Island "${record.island}": slot "${name}" is rendered twice; render each slot once`,
    );
  }
  record.rendered.add(name);
  return h(
    SLOT_TAG,
    { ...slotAttrs(name, record.owner), style: "display:contents" },
    h(InsideIsland.Provider, { value: false }, record.content.get(name)),
  );
}

/**
 * Server: rendered after the island's own output (so every ServerSlot has run): the slots the
 * island left out, as inert templates the client can mount later.
 */
export function SlotTemplates({ record }: { record: SlotRecord }): ComponentChild {
  const left = [...record.content.keys()].filter((name) => !record.rendered.has(name));
  if (left.length === 0) return null;
  return h(
    InsideIsland.Provider,
    { value: false },
    left.map((name) =>
      h("template", { key: name, ...slotAttrs(name, record.owner) }, record.content.get(name))
    ),
  );
}

// The same object on every render, so Preact never rewrites the slot's innerHTML: hydration
// skips it, and a re-render sees an unchanged __html.
const KEEP_DOM = { __html: "" };

interface ClientSlotProps {
  name: string;
  owner: number;
  /** The server-rendered nodes this slot owns. */
  nodes: Node[];
  /** Called once, the first time nodes that came from a template are in the document. */
  onFirstMount?: (slot: Element) => void;
}

/** Client: renders the slot element and keeps the server's nodes in it. */
function ClientSlot({ name, owner, nodes, onFirstMount }: ClientSlotProps): ComponentChild {
  const ref = useRef<HTMLElement>(null);
  const mounted = useRef(false);
  useLayoutEffect(() => {
    const el = ref.current!;
    const kids = el.childNodes;
    if (kids.length !== nodes.length || nodes.some((n, i) => kids[i] !== n)) {
      el.replaceChildren(...nodes);
    }
    if (!mounted.current) {
      mounted.current = true;
      onFirstMount?.(el);
    }
  });
  return h(SLOT_TAG, {
    ref,
    ...slotAttrs(name, owner),
    style: "display:contents",
    dangerouslySetInnerHTML: KEEP_DOM,
  });
}

/**
 * Client, before hydrating island `owner` into `marker`: the slot props, each owning the
 * server's nodes. Templates are taken out of the page (they are not part of the island's tree);
 * `hydrateWithin` hydrates the islands inside a template's content once it is mounted.
 */
export function adoptSlots(
  marker: Element,
  owner: number,
  hydrateWithin: (root: Element) => void,
): Record<string, ComponentChild> {
  const out: Record<string, ComponentChild> = {};
  const sel = `[${SLOT_OWNER_ATTR}="${owner}"]`;
  for (const el of marker.querySelectorAll(`${SLOT_TAG}${sel}`)) {
    const name = el.getAttribute("data-slot") ?? "";
    out[name] = h(ClientSlot, { name, owner, nodes: [...el.childNodes] });
  }
  for (const el of marker.querySelectorAll(`:scope > template${sel}`)) {
    const name = el.getAttribute("data-slot") ?? "";
    const nodes = [...(el as HTMLTemplateElement).content.childNodes];
    el.remove();
    // Only islands that were in the template need hydrating; a ClientSlot may mount
    // several times but hydrates its content once.
    let pending = true;
    const onFirstMount = (slot: Element) => {
      if (pending) hydrateWithin(slot);
      pending = false;
    };
    out[name] = h(ClientSlot, { name, owner, nodes, onFirstMount });
  }
  return out;
}

/** Client: the island markers under `root` to hydrate (those not part of an outer island). */
export function topLevelMarkers(root: ParentNode): Element[] {
  return [...root.querySelectorAll(`${MARKER_TAG}[data-props]`)].filter((el) => {
    // Nested islands hydrate as part of their outer island; islands in a slot stand alone.
    const host = el.parentElement?.closest(`${MARKER_TAG}, ${SLOT_TAG}`);
    return !host || host.localName === SLOT_TAG;
  });
}
