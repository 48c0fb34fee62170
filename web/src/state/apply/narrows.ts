/**
 * Keeping the fetched message lists (AppState.narrows) right as messages arrive, move and go:
 * a message joins a list when the narrow's terms match it and its id falls inside what the
 * list has loaded; a view the app cannot judge locally is marked stale and refetches.
 */
import type { Message } from '@chat/client';
import { matchesNarrow } from '../match';
import type { AppState, NarrowMessages } from '../store';
import type { NarrowTerm } from '../../narrow/hash';

/** The terms of a store key (narrowKey()). */
export function termsOfKey(key: string): NarrowTerm[] {
  const pairs = JSON.parse(key) as Array<[string, string]>;
  return pairs.map(([op, operand]) => (op.startsWith('-') ? { operator: op.slice(1), operand, negated: true } : { operator: op, operand }));
}

export function insertSorted(ids: number[], id: number): number[] {
  if (ids.includes(id)) return ids;
  if (!ids.length || ids[ids.length - 1]! < id) return [...ids, id];
  return [...ids, id].sort((a, b) => a - b);
}

/** Whether `id` lies inside the stretch of history the list has loaded. */
function inLoadedRange(n: NarrowMessages, id: number): boolean {
  if (!n.ids.length) return n.foundOldest && n.foundNewest;
  return (n.foundOldest || id >= n.ids[0]!) && (n.foundNewest || id <= n.ids[n.ids.length - 1]!);
}

const byPlace = (terms: NarrowTerm[]) => terms.some((t) => t.operator === 'channel' || t.operator === 'topic');

/**
 * Re-files `messages` (already updated in the store) in every list: added where they now match,
 * removed where they no longer do; `unknown` ids (messages the store does not hold) make the
 * lists that `dependsOn` says could hold them stale (by default those filed by channel or topic).
 */
export function refile(s: AppState, messages: Message[], unknown: number[] = [], dependsOn: (terms: NarrowTerm[]) => boolean = byPlace): Record<string, NarrowMessages> {
  const selfId = s.reg?.user_id ?? 0;
  let changed = false;
  const narrows: Record<string, NarrowMessages> = {};
  for (const [key, n] of Object.entries(s.narrows)) {
    const terms = termsOfKey(key);
    // Search results stay as fetched, as the family's search views do (no refetch per message).
    const isSearch = terms.some((t) => t.operator === 'search');
    let next = n;
    for (const m of messages) {
      const match = matchesNarrow(m, terms, selfId);
      if (match === undefined) next = next.stale || isSearch ? next : { ...next, stale: true };
      else if (match && inLoadedRange(next, m.id)) next = next.ids.includes(m.id) ? next : { ...next, ids: insertSorted(next.ids, m.id) };
      else if (!match && next.ids.includes(m.id)) next = { ...next, ids: next.ids.filter((id) => id !== m.id) };
    }
    if (unknown.length && dependsOn(terms) && !next.stale) next = { ...next, stale: true };
    if (next !== n) changed = true;
    narrows[key] = next;
  }
  return changed ? narrows : s.narrows;
}

/** Drops `ids` from every list. */
export function dropFromNarrows(s: AppState, ids: Iterable<number>): Record<string, NarrowMessages> {
  const gone = new Set(ids);
  let changed = false;
  const narrows: Record<string, NarrowMessages> = {};
  for (const [key, n] of Object.entries(s.narrows)) {
    if (n.ids.some((id) => gone.has(id))) {
      narrows[key] = { ...n, ids: n.ids.filter((id) => !gone.has(id)) };
      changed = true;
    } else narrows[key] = n;
  }
  return changed ? narrows : s.narrows;
}
