/**
 * A list the register snapshot does not carry (invitations, exports): fetched when its screen
 * opens, again when an event says it changed (a counter the store bumps, like invitesVersion,
 * or an event type the store keeps nothing of), and after a fresh register (events may have
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

export interface Triggers {
  /** A number the store changes when the list changed (e.g. invitesVersion). */
  version?: number;
  /** Event types, not otherwise handled by the store, that say the list changed. */
  events?: readonly string[];
}

export function useFetchedList<T>(load: () => Promise<T>, triggers: Triggers = {}): FetchedList<T> {
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

  useEffect(() => reload(), [reload, generation, triggers.version]);
  const types = (triggers.events ?? []).join(' ');
  useEffect(() => {
    const offs = types ? types.split(' ').map((type) => onServerEvent(type, reload)) : [];
    return () => offs.forEach((off) => off());
  }, [types, reload]);

  return { data, error, loading, reload };
}
