/**
 * @module dashboard/state/use-loader
 * Loads data from the API, and loads it again when the gateway says something changed (debounced),
 * every `intervalMs`, or on demand. Keeps the last good data while reloading.
 */

import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import type { EventName } from '../model/activity.js';
import { useSession } from './session.js';

/** Wait after an event before reloading, so a burst of events costs one request. @default 300 */
export const RELOAD_DEBOUNCE_MS = 300;

/** The state of a load. */
export interface Loaded<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload: () => void;
}

/** Loads `load()` now, on `events`, and every `intervalMs` (0: never). */
export function useLoader<T>(load: () => Promise<T>, events: readonly EventName[], intervalMs = 0): Loaded<T> {
  const { events: hub } = useSession();
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const [loading, setLoading] = useState(true);
  const loadRef = useRef(load);
  loadRef.current = load;
  const generation = useRef(0);

  const reload = useCallback(() => {
    const mine = ++generation.current;
    setLoading(true);
    loadRef.current().then(
      (value) => {
        if (mine !== generation.current) return;
        setData(value);
        setError(undefined);
        setLoading(false);
      },
      (failure: unknown) => {
        if (mine !== generation.current) return;
        setError(failure);
        setLoading(false);
      },
    );
  }, []);

  useEffect(() => {
    reload();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const unsubscribe = hub.onEvent(events, () => {
      if (timer !== undefined) return;
      timer = setTimeout(() => {
        timer = undefined;
        reload();
      }, RELOAD_DEBOUNCE_MS);
    });
    const interval = intervalMs > 0 ? setInterval(reload, intervalMs) : undefined;
    return () => {
      // A load still in flight must not set state on an unmounted page.
      generation.current++;
      unsubscribe();
      if (timer !== undefined) clearTimeout(timer);
      if (interval !== undefined) clearInterval(interval);
    };
    // The event list is constant per page: it is not a dependency.
  }, [hub, reload, intervalMs]);

  return { data, error, loading, reload };
}

/** The current time, ticking every `ms` (for uptimes and chart windows). */
export function useNow(ms = 1000): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(timer);
  }, [ms]);
  return now;
}
