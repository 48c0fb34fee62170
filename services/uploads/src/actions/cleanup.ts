import { recordEvent } from '@chat/bus';
import type { Services } from '../context';
import { removeStoredFile, uploadSpaceUsed } from './attachments';

/**
 * Deletes files that no existing message links to and that are older than the grace period
 * (long enough to write the message an upload was meant for). Links of deleted messages are
 * dropped first, so a file whose every message is gone counts as unreferenced.
 */
export async function deleteUnclaimedAttachments(services: Services, olderThanDays: number, now = new Date()): Promise<number> {
  await services.db.$executeRawUnsafe(
    `DELETE FROM attachment_messages am WHERE NOT EXISTS (SELECT 1 FROM messages m WHERE m.id = am.message_id)`,
  );
  const cutoff = new Date(now.getTime() - olderThanDays * 24 * 3600 * 1000);
  const stale = await services.db.attachment.findMany({
    where: { createTime: { lt: cutoff }, messages: { none: {} } },
    orderBy: { id: 'asc' },
    take: 1000,
  });
  let deleted = 0;
  for (const a of stale) {
    const gone = await services.db.$transaction(async (tx) => {
      // Re-checked inside the transaction: a message may have claimed it meanwhile.
      const removed = await tx.attachment.deleteMany({ where: { id: a.id, messages: { none: {} } } });
      if (!removed.count) return false;
      await recordEvent(tx, {
        realmId: a.realmId,
        type: 'attachment',
        users: [a.ownerId],
        event: { type: 'attachment', op: 'remove', attachment: { id: a.id }, upload_space_used: await uploadSpaceUsed(tx, a.realmId) },
      });
      return true;
    });
    if (!gone) continue;
    await removeStoredFile(services, a);
    deleted++;
  }
  return deleted;
}
