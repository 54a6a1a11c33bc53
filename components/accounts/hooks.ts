import { useEffect, useRef, useState } from "preact/hooks";

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
 * request cannot overwrite a later one.
 */
export function useLatest<T>(
  load: () => Promise<T>,
  deps: unknown[],
  onError: (e: unknown) => void,
): { data: T | null; loading: boolean } {
  const [state, setState] = useState<{ data: T | null; loading: boolean }>({
    data: null,
    loading: true,
  });
  const seq = useRef(0);
  useEffect(() => {
    const mine = ++seq.current;
    setState((s) => ({ ...s, loading: true }));
    load().then(
      (data) => mine === seq.current && setState({ data, loading: false }),
      (e) => {
        if (mine !== seq.current) return;
        setState((s) => ({ ...s, loading: false }));
        onError(e);
      },
    );
  }, deps);
  return state;
}
