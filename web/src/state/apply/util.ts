/** Small immutable helpers the event handlers share. */
import type { RegisterState } from '@chat/client';
import type { AppState } from '../store';

/** A copy of the state with the snapshot changed; no snapshot yet means nothing to change. */
export function withReg(s: AppState, update: (reg: RegisterState) => RegisterState): AppState {
  if (!s.reg) return s;
  const reg = update(s.reg);
  return reg === s.reg ? s : { ...s, reg };
}

/** A list of the snapshot (missing lists read as empty). */
export function listOf<T>(reg: RegisterState, key: string): T[] {
  const value = reg[key];
  return Array.isArray(value) ? (value as T[]) : [];
}

export function sortedUnion(a: readonly number[], b: readonly number[]): number[] {
  return [...new Set([...a, ...b])].sort((x, y) => x - y);
}

export function without(a: readonly number[], b: readonly number[]): number[] {
  const gone = new Set(b);
  return a.filter((id) => !gone.has(id));
}

/** Replaces (or, with `add`, appends) the entry whose `key` equals `id`. */
export function upsert<T extends Record<string, unknown>>(list: readonly T[], key: keyof T, item: T, add = true): T[] {
  const i = list.findIndex((x) => x[key] === item[key]);
  if (i < 0) return add ? [...list, item] : [...list];
  return list.map((x, j) => (j === i ? item : x));
}

/** Applies `update` to the entries whose `key` is in `ids`. */
export function mapWhere<T extends Record<string, unknown>>(list: readonly T[], key: keyof T, ids: readonly unknown[] | ReadonlySet<unknown>, update: (x: T) => T): T[] {
  const set = ids instanceof Set ? ids : new Set(ids as unknown[]);
  let changed = false;
  const out = list.map((x) => {
    if (!set.has(x[key])) return x;
    const y = update(x);
    // An update that keeps the row keeps the list, so views watching it do not redraw.
    if (y !== x) changed = true;
    return y;
  });
  return changed ? out : (list as T[]);
}
