import type { Services } from '../context';
import { linkedPathIds } from '../lib/files';
import { readable } from './access';
import { notifyAttachment } from './attachments';

/**
 * Records that message `messageId` links to attachment `attachmentId`, which shares the file
 * with the message's readers. Only a sender who can read the file may share it this way, so a
 * URL learnt elsewhere grants nothing. Returns whether a new link was recorded.
 */
export async function claimAttachment(services: Services, attachmentId: number, messageId: number, announceExisting = false): Promise<boolean> {
  const [message, attachment] = await Promise.all([
    services.db.message.findUnique({ where: { id: messageId }, select: { id: true, realmId: true, senderId: true, sender: { select: { role: true } } } }),
    services.db.attachment.findUnique({ where: { id: attachmentId } }),
  ]);
  if (!message || !attachment || message.realmId !== attachment.realmId) return false;
  if (message.senderId !== attachment.ownerId && !(await readable(services, attachment.id, { userId: message.senderId, role: message.sender.role }))) {
    return false;
  }
  return services.db.$transaction(async (tx) => {
    const inserted = await tx.$executeRawUnsafe(
      `INSERT INTO attachment_messages (attachment_id, message_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`,
      attachment.id,
      message.id,
    );
    // A send claims its sender's own files in its transaction (messaging); the owner hears of
    // the new link from here, once the message event arrives.
    if (inserted || announceExisting) await notifyAttachment(tx, attachment.realmId, attachment.ownerId, 'update', attachment.id);
    return inserted > 0;
  });
}

/**
 * Brings a message's links in line with its current content: claims uploads it links to and
 * drops links its content no longer has (after an edit). A deleted message loses every link.
 */
export async function syncMessageLinks(services: Services, messageId: number, justSent = false): Promise<void> {
  const message = await services.db.message.findUnique({ where: { id: messageId }, select: { id: true, realmId: true, content: true } });
  const wanted = message ? linkedPathIds(message.content) : [];
  const attachments = wanted.length
    ? await services.db.attachment.findMany({ where: { realmId: message!.realmId, pathId: { in: wanted } }, select: { id: true } })
    : [];
  const wantedIds = new Set(attachments.map((a) => a.id));
  for (const id of wantedIds) await claimAttachment(services, id, messageId, justSent);

  const stale = await services.db.attachmentMessage.findMany({
    where: { messageId, attachmentId: { notIn: [...wantedIds] } },
    include: { attachment: { select: { realmId: true, ownerId: true } } },
  });
  for (const link of stale) {
    await services.db.$transaction(async (tx) => {
      const removed = await tx.attachmentMessage.deleteMany({ where: { attachmentId: link.attachmentId, messageId } });
      if (removed.count) await notifyAttachment(tx, link.attachment.realmId, link.attachment.ownerId, 'update', link.attachmentId);
    });
  }
}
