import { useEffect, useRef, useState } from "react";

/** Spec §9: searches wait 300 ms after the last keystroke. */
export const SEARCH_DEBOUNCE_MS = 300;

/** `value`, updated only once it has stayed the same for `ms`. */
export function useDebounced<T>(value: T, ms = SEARCH_DEBOUNCE_MS): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/**
 * Runs `load` whenever `deps` change and keeps only the newest answer, so a slow earlier
 * request cannot overwrite a later one. Data loaded for other deps counts as loading from the
 * very render that changes them (the effect that starts the request runs only after paint), so
 * a caller never shows old rows as if they answered the new query.
 */
export function useLatest<T>(
  load: () => Promise<T>,
  deps: unknown[],
  onError: (e: unknown) => void,
): { data: T | null; loading: boolean } {
  const [state, setState] = useState<{ data: T | null; loading: boolean; for: unknown[] | null }>(
    { data: null, loading: true, for: null },
  );
  const seq = useRef(0);
  useEffect(() => {
    const mine = ++seq.current;
    const forDeps = deps;
    setState((s) => ({ ...s, loading: true }));
    load().then(
      (data) => mine === seq.current && setState({ data, loading: false, for: forDeps }),
      (e) => {
        if (mine !== seq.current) return;
        setState((s) => ({ ...s, loading: false, for: forDeps }));
        onError(e);
      },
    );
  }, deps);
  return { data: state.data, loading: state.loading || !sameDeps(state.for, deps) };
}

function sameDeps(a: unknown[] | null, b: unknown[]): boolean {
  return a !== null && a.length === b.length && a.every((v, i) => Object.is(v, b[i]));
}
