import { recordEvent } from '@chat/bus';
import { ROLE } from '@chat/contracts';
import type { Tx } from '@chat/db';
import { generateApiKey } from '@chat/realm';
import type { Services } from '../context';
import { forgetCachedAuth } from '../lib/auth-cache';

/** Who hears about a bot's changes: its owner and the realm's administrators. */
export async function botAudience(tx: Tx, realmId: number, botOwnerId: number | null): Promise<number[]> {
  const admins = await tx.user.findMany({
    where: { realmId, isActive: true, isBot: false, role: { lte: ROLE.ADMINISTRATOR } },
    select: { id: true },
  });
  const ids = new Set(admins.map((a) => a.id));
  if (botOwnerId !== null) ids.add(botOwnerId);
  return [...ids].sort((a, b) => a - b);
}

/**
 * Gives a user or bot a new API key; the old one stops working at once. A bot's owner and the
 * administrators get a realm_bot update carrying the new key (they are the ones who may see it).
 */
export async function doRegenerateApiKey(
  services: Pick<Services, 'db' | 'redis' | 'config'>,
  target: { id: number; realmId: number; isBot: boolean; botOwnerId: number | null },
): Promise<string> {
  const newKey = generateApiKey();
  const oldKey = await services.db.$transaction(async (tx) => {
    const before = await tx.user.findUniqueOrThrow({ where: { id: target.id }, select: { apiKey: true } });
    await tx.user.update({ where: { id: target.id }, data: { apiKey: newKey } });
    if (target.isBot) {
      await recordEvent(tx, {
        realmId: target.realmId,
        type: 'realm_bot',
        users: await botAudience(tx, target.realmId, target.botOwnerId),
        event: { type: 'realm_bot', op: 'update', bot: { user_id: target.id, api_key: newKey } },
      });
    }
    return before.apiKey;
  });
  await forgetCachedAuth(services, oldKey);
  return newKey;
}
