/**
 * What a send promises beyond storing the message, each in the send's own transaction:
 * a retried send with the same idempotency key returns the first send's answer instead of
 * storing the message twice, and the sender's own uploads the message links to are claimed at
 * once, so every reader may open them as soon as the send returns (the family's server does
 * the same in do_send_messages).
 */
import type { Db, Prisma, Tx } from '@chat/db';
import { linkedPathIds } from '@chat/contracts';

/** How long a key is remembered: far beyond any client's retry window. */
export const SEND_KEY_TTL_MS = 24 * 3600 * 1000;
/** Longest key accepted; longer ones are cut, not refused, so a client's send still goes out. */
const MAX_KEY_LENGTH = 200;

/**
 * The key of a send: the `Idempotency-Key` header, or the family's `queue_id` + `local_id`
 * pair (its clients number their sends per event queue), or none.
 */
export function sendKeyOf(header: string | undefined, queueId: string | undefined, localId: string | undefined): string | undefined {
  if (header?.trim()) return `h:${header.trim()}`.slice(0, MAX_KEY_LENGTH);
  if (queueId && localId) return `q:${queueId}:${localId}`.slice(0, MAX_KEY_LENGTH);
  return undefined;
}

export async function earlierSend<T>(db: Db | Tx, senderId: number, key: string): Promise<T | null> {
  const row = await db.sendKey.findUnique({ where: { senderId_key: { senderId, key } }, select: { result: true, createdAt: true } });
  if (!row || row.createdAt.getTime() < Date.now() - SEND_KEY_TTL_MS) return null;
  return row.result as T;
}

export async function recordSendKey(tx: Tx, senderId: number, key: string, messageId: number, result: object): Promise<void> {
  // A stale row of the same key (past its TTL, not swept yet) gives way to the new send.
  await tx.sendKey.deleteMany({ where: { senderId, key, createdAt: { lt: new Date(Date.now() - SEND_KEY_TTL_MS) } } });
  await tx.sendKey.create({ data: { senderId, key, messageId, result: result as Prisma.InputJsonValue } });
}

/** A concurrent send with the same key committed first. */
export function isSendKeyConflict(err: unknown): boolean {
  return (err as { code?: string } | null)?.code === 'P2002';
}

export async function sweepSendKeys(db: Db): Promise<number> {
  const { count } = await db.sendKey.deleteMany({ where: { createdAt: { lt: new Date(Date.now() - SEND_KEY_TTL_MS) } } });
  return count;
}

/**
 * Links the message to the uploads of its sender it names. Files of other people it names are
 * left to the uploads service, which checks the sender may read them before sharing them.
 */
export async function claimOwnUploads(tx: Tx, realmId: number, senderId: number, messageId: number, content: string): Promise<void> {
  const pathIds = linkedPathIds(content);
  if (!pathIds.length) return;
  const own = await tx.attachment.findMany({ where: { realmId, ownerId: senderId, pathId: { in: pathIds } }, select: { id: true } });
  if (!own.length) return;
  await tx.attachmentMessage.createMany({ data: own.map((a) => ({ attachmentId: a.id, messageId })), skipDuplicates: true });
}
