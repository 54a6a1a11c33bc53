/**
 * `island(name, Component)` marks a component for client-side hydration.
 *
 * Server (inside renderPage): the top-level island renders
 * `<tp-island data-island=name data-props=index style="display:contents">SSR</tp-island>`
 * and records its props. An island nested inside another island's output renders the same
 * marker without data-props: it becomes part of the outer island's client tree.
 * Client: the boot script hydrates the Component directly into the top-level marker, so any
 * wrapper the client renders is nested and emits the data-props-less marker, matching SSR.
 *
 * Slots: a top-level island's `children`, and the props named in `options.slots`, are rendered
 * on the server and handed to the client as the server's DOM (see slots.tsx), not serialized.
 */
import { type ComponentChild, type ComponentType, h, isValidElement } from "preact";
import { useContext } from "preact/hooks";
import { MARKER_TAG } from "./constants.ts";
import { currentRenderContext } from "./context.ts";
import { serialize, SerializeError } from "./serialize.ts";
import { hasContent, InsideIsland, ServerSlot, type SlotRecord, SlotTemplates } from "./slots.tsx";

export interface IslandOptions {
  /**
   * Props besides `children` that take server-rendered JSX (named slots, e.g. "aside").
   * `children` is always a slot; any other JSX prop is an error.
   */
  slots?: readonly string[];
}

const IMPL = Symbol.for("tp.island.impl");

interface IslandWrapper<P> {
  (props: P): ComponentChild;
  displayName?: string;
  [IMPL]?: { name: string; Component: ComponentType<P>; slots: readonly string[] };
}

const NAME_RE = /^[A-Za-z0-9_][A-Za-z0-9_\-]*(\/[A-Za-z0-9_][A-Za-z0-9_\-]*)*$/;

/** Throws a clear error when props can't be sent to the client; returns them serialized. */
function checkProps(name: string, props: Record<string, unknown>): string {
  for (const [key, value] of Object.entries(props)) {
    if (isValidElement(value) || (Array.isArray(value) && value.some(isValidElement))) {
      throw new Error(
        `Island "${name}": prop "${key}" is JSX; islands cannot take JSX props ` +
          `(pass it as children or declare it in island(name, C, { slots }))`,
      );
    }
  }
  try {
    return serialize(props);
  } catch (err) {
    if (err instanceof SerializeError) {
      throw new Error(`Island "${name}": prop ${err.message}`, { cause: err });
    }
    throw err;
  }
}

function marker(name: string, index: number | null, child: ComponentChild): ComponentChild {
  const attrs: Record<string, string> = { "data-island": name };
  if (index !== null) attrs["data-props"] = String(index);
  attrs.style = "display:contents";
  return h(MARKER_TAG, attrs, child);
}

/** Splits props into serialized data and slot content (slots with nothing in them are dropped). */
function splitSlots(props: Record<string, unknown>, slotNames: readonly string[]) {
  const data: Record<string, unknown> = {};
  const slots = new Map<string, ComponentChild>();
  for (const [key, value] of Object.entries(props)) {
    if (!slotNames.includes(key)) data[key] = value;
    else if (hasContent(value)) slots.set(key, value as ComponentChild);
  }
  return { data, slots };
}

export function island<P>(
  name: string,
  Component: ComponentType<P>,
  options: IslandOptions = {},
): ComponentType<P> {
  if (!NAME_RE.test(name)) {
    throw new Error(`island(): invalid name "${name}"; use the file path without extension`);
  }
  const slotNames = ["children", ...(options.slots ?? [])];
  const Impl = Component as ComponentType<Record<string, unknown>>;
  const Wrapper: IslandWrapper<P> = (props: P) => {
    const nested = useContext(InsideIsland);
    const ctx = currentRenderContext();
    // Client side, nested island, or a plain renderToString without renderPage: slots are
    // ordinary props of the enclosing client tree.
    if (nested || !ctx) return marker(name, null, h(Impl, props as never));
    const { data, slots } = splitSlots(props as Record<string, unknown>, slotNames);
    const index = ctx.props.push(checkProps(name, data)) - 1;
    ctx.islands.add(name);
    const record: SlotRecord = { island: name, owner: index, content: slots, rendered: new Set() };
    const implProps: Record<string, unknown> = { ...data };
    for (const key of slots.keys()) implProps[key] = h(ServerSlot, { record, name: key });
    return marker(
      name,
      index,
      h(InsideIsland.Provider, { value: true }, h(Impl, implProps), h(SlotTemplates, { record })),
    );
  };
  Wrapper.displayName = `Island(${name})`;
  Wrapper[IMPL] = { name, Component, slots: slotNames };
  return Wrapper as unknown as ComponentType<P>;
}

/** The name and implementation behind an island wrapper, or null if `value` isn't one. */
export function islandInfo(
  value: unknown,
): { name: string; Component: ComponentType<Record<string, unknown>> } | null {
  if (typeof value !== "function") return null;
  const info = (value as IslandWrapper<Record<string, unknown>>)[IMPL];
  return info ?? null;
}
