/**
 * The per-render record of islands used on a page.
 *
 * preact-render-to-string renders synchronously, so one module-level "current" context is
 * enough: renderPage installs it, renders, and removes it before returning.
 */

export interface RenderContext {
  /**
   * Serialized (script-safe) props of each top-level island in document order; the marker's
   * data-props is the index. Serialized eagerly so errors name the island that caused them.
   */
  props: string[];
  /** Names of islands that need their client module on this page. */
  islands: Set<string>;
}

let current: RenderContext | null = null;

export function currentRenderContext(): RenderContext | null {
  return current;
}

/** Runs `fn` with a fresh render context and returns its result plus what it recorded. */
export function withRenderContext<T>(fn: () => T): { result: T; context: RenderContext } {
  if (current) throw new Error("withRenderContext: renders cannot be nested");
  const context: RenderContext = { props: [], islands: new Set() };
  current = context;
  try {
    return { result: fn(), context };
  } finally {
    current = null;
  }
}
