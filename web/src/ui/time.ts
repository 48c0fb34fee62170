/**
 * Times as the person likes them (twenty_four_hour_time), and a clock that ticks for displays
 * that age ("5 minutes ago", presence dots).
 */
import { useSyncExternalStore } from 'react';
import { useUserSetting } from './settings';

export interface TimeFormat {
  twentyFour: boolean;
  /** 14:05 or 2:05 PM. */
  time: (ts: number) => string;
  /** A date with the time, for tooltips. */
  full: (ts: number) => string;
}

export function timeFormat(twentyFour: boolean, timeZone?: string): TimeFormat {
  const opts: Intl.DateTimeFormatOptions = { hour: twentyFour ? '2-digit' : 'numeric', minute: '2-digit', hour12: !twentyFour, ...(timeZone ? { timeZone } : {}) };
  // One formatter each, made once: toLocaleString with options builds a new one per call,
  // which showed as a good part of drawing a page of messages (two times a row).
  const short = new Intl.DateTimeFormat(undefined, opts);
  const long = new Intl.DateTimeFormat(undefined, { ...opts, weekday: 'short', year: 'numeric', month: 'short', day: 'numeric' });
  return {
    twentyFour,
    time: (ts) => short.format(new Date(ts * 1000)),
    full: (ts) => long.format(new Date(ts * 1000)),
  };
}

const formats = new Map<boolean, TimeFormat>();

export function useTimeFormat(): TimeFormat {
  const twentyFour = useUserSetting('twenty_four_hour_time', false);
  let f = formats.get(twentyFour);
  if (!f) formats.set(twentyFour, (f = timeFormat(twentyFour)));
  return f;
}

const TICK_MS = 30_000;
let now = Math.floor(Date.now() / 1000);
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | null = null;

function subscribe(l: () => void): () => void {
  listeners.add(l);
  timer ??= setInterval(() => {
    now = Math.floor(Date.now() / 1000);
    for (const x of listeners) x();
  }, TICK_MS);
  return () => {
    listeners.delete(l);
    if (!listeners.size && timer) {
      clearInterval(timer);
      timer = null;
    }
  };
}

/** Seconds since the epoch, updated every half minute. */
export function useNow(): number {
  return useSyncExternalStore(subscribe, () => now);
}

/** "just now", "5 minutes ago", "3 hours ago", "2 days ago". */
const relativeFormats = new Map<string, Intl.RelativeTimeFormat>();

export function relativeTime(ts: number, at: number, lang?: string): string {
  const diff = ts - at;
  let rtf = relativeFormats.get(lang ?? '');
  if (!rtf) relativeFormats.set(lang ?? '', (rtf = new Intl.RelativeTimeFormat(lang, { numeric: 'auto' })));
  const abs = Math.abs(diff);
  if (abs < 60) return rtf.format(0, 'second');
  if (abs < 3600) return rtf.format(Math.round(diff / 60), 'minute');
  if (abs < 86400) return rtf.format(Math.round(diff / 3600), 'hour');
  if (abs < 86400 * 30) return rtf.format(Math.round(diff / 86400), 'day');
  return new Date(ts * 1000).toLocaleDateString(lang, { year: 'numeric', month: 'short', day: 'numeric' });
}
