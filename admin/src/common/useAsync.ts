/** A small loader for page-local reads (react-query is react-admin's; these pages just need state). */
import { useCallback, useEffect, useState } from 'react';
import { useDataProvider } from 'react-admin';
import type { VanceDataProvider } from '../api/dataProvider';
import { session } from '../api/session';

export interface Async<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload: () => void;
}

export function useAsync<T>(load: (dp: VanceDataProvider) => Promise<T>, deps: readonly unknown[]): Async<T> {
  const dp = useDataProvider<VanceDataProvider>();
  const project = useProject();
  const [state, setState] = useState<{ data?: T; error?: unknown; loading: boolean }>({ loading: true });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    load(dp).then(
      (data) => live && setState({ data, loading: false }),
      (error: unknown) => live && setState({ error, loading: false }),
    );
    return () => { live = false; };
  }, [...deps, project, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { data: state.data, error: state.error, loading: state.loading, reload };
}

export function useProject(): string | null {
  const [project, setProject] = useState(session.project());
  useEffect(() => session.onProjectChange(setProject), []);
  return project;
}
