import { useEffect, useRef, useState } from 'preact/hooks';
import { useApp } from './context.js';

export interface DataState<T> {
  data: T | undefined;
  error: Error | null;
  loading: boolean;
}

/**
 * Loads `load()` when the page opens, when `deps` change and at every polling tick; keeps the last good data
 * while reloading, and drops answers that arrive after a newer request started.
 */
export function useData<T>(load: () => Promise<T>, deps: unknown[], poll = true): DataState<T> {
  const { tick, report, api } = useApp();
  const [state, setState] = useState<DataState<T>>({ data: undefined, error: null, loading: true });
  const generation = useRef(0);
  const depsKey = JSON.stringify(deps);
  const lastKey = useRef<string | null>(null);
  useEffect(() => {
    const changed = lastKey.current !== `${api.baseUrl}|${depsKey}`;
    if (!changed && !poll) return;
    lastKey.current = `${api.baseUrl}|${depsKey}`;
    const mine = ++generation.current;
    if (changed)
      setState((s) => ({ data: changed ? undefined : s.data, error: null, loading: true }));
    load().then(
      (data) => {
        if (mine !== generation.current) return;
        report(null);
        setState({ data, error: null, loading: false });
      },
      (error: Error) => {
        if (mine !== generation.current) return;
        report(error);
        setState((s) => ({ data: s.data, error, loading: false }));
      },
    );
  }, [depsKey, tick, api]);
  return state;
}
