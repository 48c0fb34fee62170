import { errors, type Actor } from '@chat/contracts';
import type { Tx } from '@chat/db';
import type { Services } from '../context';

/**
 * Bot storage: a small key-value store per account, used by bots to keep state between runs.
 * As in the family's server, it belongs to whoever calls (bots in practice); nobody else can
 * read it. Sizes count characters of keys and values together, per account.
 */

/** Characters as the family's server counts them (code points, not UTF-16 units). */
const chars = (s: string) => [...s].length;

function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v === 'object' ? 'object' : typeof v;
}

/** The entries of a `storage` object; every value must be a string. */
export function checkStorageEntries(storage: unknown): Array<[string, string]> {
  if (jsonType(storage) !== 'object') throw errors.invalidArgument('storage', 'storage is not a dict');
  return Object.entries(storage as Record<string, unknown>).map(([key, value]) => {
    if (typeof value !== 'string') throw errors.badRequest(`Value type is ${jsonType(value)}, but should be string.`);
    return [key, value];
  });
}

/** One transaction at a time per account, so two writers cannot both pass the size check. */
async function lockStorage(tx: Tx, userId: number) {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('bot_storage'), ${userId})`;
}

async function storedSize(tx: Tx, userId: number): Promise<number> {
  const [row] = await tx.$queryRaw<Array<{ size: bigint | null }>>`
    SELECT SUM(length(key) + length(value))::bigint AS size FROM bot_storage_data WHERE bot_id = ${userId}`;
  return Number(row?.size ?? 0);
}

/** GET /bot_storage: the named keys (every one must exist), or everything when none are named. */
export async function accessBotStorage(services: Services, actor: Actor, keys: string[] | undefined): Promise<Record<string, string>> {
  const rows = await services.db.botStorageData.findMany({
    where: { botId: actor.userId, ...(keys?.length ? { key: { in: keys } } : {}) },
    orderBy: { id: 'asc' },
  });
  const byKey = new Map(rows.map((r) => [r.key, r.value]));
  if (!keys?.length) return Object.fromEntries(byKey);
  const out: Record<string, string> = {};
  for (const key of keys) {
    const value = byKey.get(key);
    if (value === undefined) throw errors.badRequest('Key does not exist.');
    out[key] = value;
  }
  return out;
}

/** PUT /bot_storage: sets every entry, or none when the result would exceed the limit. */
export async function doSetBotStorage(services: Services, actor: Actor, entries: Array<[string, string]>): Promise<void> {
  const limit = services.config.BOT_STORAGE_SIZE_LIMIT;
  await services.db.$transaction(async (tx) => {
    await lockStorage(tx, actor.userId);
    const existing = await tx.botStorageData.findMany({ where: { botId: actor.userId, key: { in: entries.map(([k]) => k) } } });
    const old = new Map(existing.map((r) => [r.key, chars(r.key) + chars(r.value)]));
    let size = await storedSize(tx, actor.userId);
    for (const [key, value] of entries) size += chars(key) + chars(value) - (old.get(key) ?? 0);
    if (size > limit) throw errors.badRequest(`Request exceeds storage limit by ${size - limit} characters. The limit is ${limit} characters.`);
    for (const [key, value] of entries) {
      await tx.botStorageData.upsert({ where: { botId_key: { botId: actor.userId, key } }, create: { botId: actor.userId, key, value }, update: { value } });
    }
  });
}

/** DELETE /bot_storage: removes the named keys (all must exist), or everything when none are named. */
export async function doRemoveBotStorage(services: Services, actor: Actor, keys: string[] | undefined): Promise<void> {
  await services.db.$transaction(async (tx) => {
    await lockStorage(tx, actor.userId);
    if (!keys?.length) {
      await tx.botStorageData.deleteMany({ where: { botId: actor.userId } });
      return;
    }
    const found = await tx.botStorageData.count({ where: { botId: actor.userId, key: { in: keys } } });
    if (found < new Set(keys).size) throw errors.badRequest('Key does not exist.');
    await tx.botStorageData.deleteMany({ where: { botId: actor.userId, key: { in: keys } } });
  });
}
