/**
 * A list the register snapshot does not carry (invitations, exports): fetched when its screen
 * opens, again when an event says it changed, and after a fresh register (events may have
 * been missed). Never on a timer.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { errorText } from '../api';
import { useAppState } from '../state/store';
import { onServerEvent } from './signals';

export interface FetchedList<T> {
  data: T | null;
  error: string | null;
  loading: boolean;
  reload: () => void;
}

export function useFetchedList<T>(load: () => Promise<T>, eventTypes: readonly string[]): FetchedList<T> {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const generation = useAppState((s) => s.generation);
  const loadRef = useRef(load);
  loadRef.current = load;
  const seq = useRef(0);

  const reload = useCallback(() => {
    const n = ++seq.current;
    setLoading(true);
    loadRef.current().then(
      (d) => {
        if (n !== seq.current) return;
        setData(d);
        setError(null);
        setLoading(false);
      },
      (err: unknown) => {
        if (n !== seq.current) return;
        setError(errorText(err));
        setLoading(false);
      },
    );
  }, []);

  useEffect(() => reload(), [reload, generation]);
  const types = eventTypes.join(' ');
  useEffect(() => {
    const offs = types.split(' ').map((type) => onServerEvent(type, reload));
    return () => offs.forEach((off) => off());
  }, [types, reload]);

  return { data, error, loading, reload };
}
