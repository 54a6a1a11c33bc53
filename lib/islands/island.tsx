/**
 * `island(name, Component)` marks a component for client-side hydration.
 *
 * Server (inside renderPage): the top-level island renders
 * `<tp-island data-island=name data-props=index style="display:contents">SSR</tp-island>`
 * and records its props. An island nested inside another island's output renders the same
 * marker without data-props: it becomes part of the outer island's client tree.
 * Client: the boot script hydrates the Component directly into the top-level marker, so any
 * wrapper the client renders is nested and emits the data-props-less marker, matching SSR.
 */
import { type ComponentChild, type ComponentType, createContext, h, isValidElement } from "preact";
import { useContext } from "preact/hooks";
import { MARKER_TAG } from "./constants.ts";
import { currentRenderContext } from "./context.ts";
import { serialize, SerializeError } from "./serialize.ts";

const InsideIsland = createContext(false);

const IMPL = Symbol.for("tp.island.impl");

interface IslandWrapper<P> {
  (props: P): ComponentChild;
  displayName?: string;
  [IMPL]?: { name: string; Component: ComponentType<P> };
}

const NAME_RE = /^[A-Za-z0-9_][A-Za-z0-9_\-]*(\/[A-Za-z0-9_][A-Za-z0-9_\-]*)*$/;

/** Throws a clear error when props can't be sent to the client; returns them serialized. */
function checkProps(name: string, props: Record<string, unknown>): string {
  for (const [key, value] of Object.entries(props)) {
    if (isValidElement(value) || (Array.isArray(value) && value.some(isValidElement))) {
      throw new Error(`Island "${name}": prop "${key}" is JSX; islands cannot take JSX props`);
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

export function island<P>(name: string, Component: ComponentType<P>): ComponentType<P> {
  if (!NAME_RE.test(name)) {
    throw new Error(`island(): invalid name "${name}"; use the file path without extension`);
  }
  const Wrapper: IslandWrapper<P> = (props: P) => {
    const nested = useContext(InsideIsland);
    const ctx = currentRenderContext();
    const inner = h(Component as ComponentType<Record<string, unknown>>, props as never);
    // Client side, nested island, or a plain renderToString without renderPage.
    if (nested || !ctx) return marker(name, null, inner);
    const index = ctx.props.push(checkProps(name, props as Record<string, unknown>)) - 1;
    ctx.islands.add(name);
    return marker(name, index, h(InsideIsland.Provider, { value: true }, inner));
  };
  Wrapper.displayName = `Island(${name})`;
  Wrapper[IMPL] = { name, Component };
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
