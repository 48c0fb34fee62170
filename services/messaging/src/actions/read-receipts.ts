/** Who has read a message. */
import { errors, flagBit } from '@chat/contracts';
import type { LoadedActor } from '../lib/caller';
import type { Services } from '../context';
import { accessMessage } from './message-access';

/** Users who have read the message, without the caller and the sender, when receipts are on. */
export async function readReceipts(services: Services, actor: LoadedActor, messageId: number): Promise<number[]> {
  const { message } = await accessMessage(services.db, actor, messageId);
  const realm = await services.db.realm.findUniqueOrThrow({ where: { id: actor.realmId } });
  if ((realm.settings as Record<string, unknown> | null)?.enable_read_receipts === false) {
    throw errors.badRequest('Read receipts are disabled in this organization.');
  }
  const rows = await services.db.$queryRawUnsafe<Array<{ user_id: number }>>(
    `SELECT um.user_id FROM user_messages um JOIN users u ON u.id = um.user_id
      WHERE um.message_id = $1 AND (um.flags & $2) <> 0 AND u.is_active AND NOT u.is_bot AND um.user_id <> $3
        AND COALESCE((u.settings->>'send_read_receipts')::boolean, true)
      ORDER BY um.user_id`,
    messageId,
    flagBit('read'),
    message.senderId,
  );
  return rows.map((r) => r.user_id);
}
