/**
 * Repeated runs of one measurement: each figure of the report is the median of its runs, with
 * the lowest and highest beside it (the spread), so that one lucky or unlucky run is not the
 * figure.
 */

export interface Repeated {
  median: number;
  min: number;
  max: number;
  runs: number[];
}

export function median(values: number[]): number {
  const s = [...values].filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (!s.length) return NaN;
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : Math.round(((s[mid - 1]! + s[mid]!) / 2) * 1000) / 1000;
}

export function repeated(runs: number[]): Repeated {
  const finite = runs.filter((v) => Number.isFinite(v));
  return { median: median(finite), min: Math.min(...finite), max: Math.max(...finite), runs };
}

/** Runs `once` `n` times in turn and gives every result. */
export async function times<T>(n: number, once: (run: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < n; i++) out.push(await once(i));
  return out;
}

/** A figure and its spread as flat report keys: `key`, `key_min`, `key_max`, `key_runs`. */
export function spreadKeys(key: string, r: Repeated): Record<string, number> {
  return { [key]: r.median, [`${key}_min`]: r.min, [`${key}_max`]: r.max, [`${key}_runs`]: r.runs.length };
}
