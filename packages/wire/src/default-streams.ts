import type { Db, Tx } from '@chat/db';

type Reader = Db | Tx;

/**
 * The realm's default channels (the ones new users join) are one list of channel ids,
 * `default_stream_ids` in the realm's settings: the users service subscribes new users to it,
 * the messaging service edits it, register reports it. This reads the stored list as written.
 */
export function storedDefaultStreamIds(settings: unknown): number[] {
  const ids = (settings as Record<string, unknown> | null)?.default_stream_ids;
  return Array.isArray(ids) ? ids.filter((x): x is number => Number.isSafeInteger(x)) : [];
}

/**
 * The default channels as the `default_streams` event and register's `realm_default_streams`
 * carry them: ids of channels of the realm that exist and are not archived, ascending.
 */
export async function defaultStreamIdsList(db: Reader, realmId: number, settings: unknown): Promise<number[]> {
  const ids = storedDefaultStreamIds(settings);
  if (!ids.length) return [];
  const rows = await db.stream.findMany({
    where: { realmId, isArchived: false, id: { in: ids } },
    select: { id: true, isArchived: true },
  });
  return defaultStreamIdsFrom(settings, rows);
}

/** defaultStreamIdsList from rows already read: `streams`, the realm's channels (any superset of the listed ones). */
export function defaultStreamIdsFrom(settings: unknown, streams: Array<{ id: number; isArchived: boolean }>): number[] {
  const live = new Set(streams.filter((s) => !s.isArchived).map((s) => s.id));
  return [...new Set(storedDefaultStreamIds(settings))].filter((id) => live.has(id)).sort((a, b) => a - b);
}

export interface DefaultStreamGroupObject {
  id: number;
  name: string;
  description: string;
  /** Channel ids, ordered by channel name. */
  streams: number[];
}

const byString = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The realm's default channel groups as the `default_stream_groups` event and register's
 * `realm_default_stream_groups` carry them: sorted by name, each group's channels as ids ordered
 * by channel name (archived or missing channels left out).
 */
export async function defaultStreamGroupsList(db: Reader, realmId: number): Promise<DefaultStreamGroupObject[]> {
  const groups = await db.defaultStreamGroup.findMany({ where: { realmId } });
  if (!groups.length) return [];
  const streamIds = [...new Set(groups.flatMap((g) => g.streamIds))];
  const streams = streamIds.length
    ? await db.stream.findMany({ where: { realmId, isArchived: false, id: { in: streamIds } }, select: { id: true, name: true, isArchived: true } })
    : [];
  return defaultStreamGroupsFrom(groups, streams);
}

/** defaultStreamGroupsList from rows already read: `streams`, the realm's channels (any superset of the groups'). */
export function defaultStreamGroupsFrom(
  groups: Array<{ id: number; name: string; description: string; streamIds: number[] }>,
  streams: Array<{ id: number; name: string; isArchived: boolean }>,
): DefaultStreamGroupObject[] {
  const names = new Map(streams.filter((s) => !s.isArchived).map((s) => [s.id, s.name]));
  return groups
    .map((g) => ({
      id: g.id,
      name: g.name,
      description: g.description,
      streams: g.streamIds.filter((id) => names.has(id)).sort((a, b) => byString(names.get(a)!, names.get(b)!) || a - b),
    }))
    .sort((a, b) => byString(a.name, b.name) || a.id - b.id);
}
