/**
 * Saving a change that the server confirms by an event. The store is the source of truth: after
 * the request the control keeps showing "Saving…" until the store (fed by the event) holds the
 * new value, then "Saved" for a few seconds; a refusal shows the server's words. While saving,
 * the control shows the value being saved rather than snapping back to the old one.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { errorText } from '../../api';

export type SaveStatus =
  | { kind: 'idle' }
  | { kind: 'saving' }
  | { kind: 'saved' }
  | { kind: 'error'; message: string }
  /** The server accepted the change but its event has not arrived. */
  | { kind: 'unconfirmed' };

export const IDLE: SaveStatus = { kind: 'idle' };

/** How long "Saved" stays up, and how long to wait for the event after the server said yes. */
const SAVED_MS = 4000;
const CONFIRM_MS = 15000;

interface Pending<T> {
  seq: number;
  display: T | undefined;
  confirmed: (current: T) => boolean;
}

export interface SaveHandle<T> {
  /** The value to show: the one being saved, else the store's. */
  value: T;
  status: SaveStatus;
  /**
   * Sends `request`; "Saving…" lasts until `confirmed(current)` holds (by default: the store's
   * value equals `display`).
   */
  save: (request: () => Promise<unknown>, display?: T, confirmed?: (current: T) => boolean) => void;
  /** Shows an error without a request (e.g. a check made before sending). */
  fail: (message: string) => void;
  /** Back to no state shown (e.g. once the person edits what was refused). */
  clear: () => void;
}

export function useSave<T>(current: T, equals: (a: T, b: T) => boolean = Object.is): SaveHandle<T> {
  const [pending, setPending] = useState<Pending<T> | null>(null);
  const [status, setStatus] = useState<SaveStatus>(IDLE);
  const seq = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const currentRef = useRef(current);
  currentRef.current = current;

  const later = (ms: number, fn: () => void) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(fn, ms);
  };
  useEffect(() => () => clearTimeout(timer.current), []);

  const done = useCallback((n: number) => {
    if (n !== seq.current) return;
    setPending(null);
    setStatus({ kind: 'saved' });
    later(SAVED_MS, () => n === seq.current && setStatus(IDLE));
  }, []);

  // The event has arrived when the store's value satisfies the pending change.
  useEffect(() => {
    if (pending && pending.confirmed(current)) done(pending.seq);
  }, [current, pending, done]);

  const save = useCallback(
    (request: () => Promise<unknown>, display?: T, confirmed?: (c: T) => boolean) => {
      const n = ++seq.current;
      const check = confirmed ?? ((c: T) => display !== undefined && equals(c, display));
      setPending({ seq: n, display, confirmed: check });
      setStatus({ kind: 'saving' });
      clearTimeout(timer.current);
      request().then(
        () => {
          if (n !== seq.current) return;
          if (check(currentRef.current)) return done(n);
          later(CONFIRM_MS, () => {
            if (n !== seq.current) return;
            setPending(null);
            setStatus({ kind: 'unconfirmed' });
          });
        },
        (err: unknown) => {
          if (n !== seq.current) return;
          setPending(null);
          setStatus({ kind: 'error', message: errorText(err) });
        },
      );
    },
    [equals, done],
  );

  const fail = useCallback((message: string) => {
    seq.current++;
    setPending(null);
    setStatus({ kind: 'error', message });
  }, []);

  const clear = useCallback(() => {
    if (pending) return;
    clearTimeout(timer.current);
    setStatus(IDLE);
  }, [pending]);

  return { clear, value: pending && pending.display !== undefined ? pending.display : current, status, save, fail };
}
