import type { Db, Tx } from '@chat/db';

/** Custom profile field values per user, keyed by field id (filled in with profile fields). */
export async function profileDataFor(
  _db: Db | Tx,
  _realmId: number,
  userIds: number[],
): Promise<Map<number, Record<string, { value: string; rendered_value?: string }>>> {
  return new Map(userIds.map((id) => [id, {}]));
}
