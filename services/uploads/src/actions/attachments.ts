import type { Tx } from '@chat/db';
import { recordEvent } from '@chat/bus';
import { errors, type Actor } from '@chat/contracts';
import type { Services } from '../context';
import { THUMBNAIL_IMAGE_TYPES } from '@chat/wire';
import { readImageSize } from '../workers/thumbnails';
import { checkUploadWithinQuotaLocked } from './quota';

type AttachmentRow = {
  id: number;
  fileName: string;
  pathId: string;
  size: bigint;
  createTime: Date;
};

/** The attachment object of GET /attachments and `attachment` events. */
export function attachmentDict(a: AttachmentRow, messages: Array<{ id: number; dateSent: Date }>) {
  return {
    id: a.id,
    name: a.fileName,
    path_id: a.pathId,
    size: Number(a.size),
    // Milliseconds, as clients of this API expect for attachments.
    create_time: a.createTime.getTime(),
    messages: messages.map((m) => ({ id: m.id, date_sent: m.dateSent.getTime() })),
  };
}

/** Bytes of every file uploaded in the realm (what `upload_space_used` reports). */
export async function uploadSpaceUsed(tx: Pick<Tx, 'attachment'>, realmId: number): Promise<number> {
  const agg = await tx.attachment.aggregate({ where: { realmId }, _sum: { size: true } });
  return Number(agg._sum.size ?? 0n);
}

/** The messages (still existing) that link to an attachment, oldest first. */
export async function linkedMessages(tx: Tx, attachmentId: number): Promise<Array<{ id: number; dateSent: Date }>> {
  return tx.$queryRawUnsafe<Array<{ id: number; dateSent: Date }>>(
    `SELECT m.id, m.date_sent AS "dateSent" FROM attachment_messages am
       JOIN messages m ON m.id = am.message_id
      WHERE am.attachment_id = $1 ORDER BY m.id`,
    attachmentId,
  );
}

/** Tells the owner (only) that one of their files changed. */
export async function notifyAttachment(tx: Tx, realmId: number, ownerId: number, op: 'add' | 'update', attachmentId: number) {
  const a = await tx.attachment.findUniqueOrThrow({ where: { id: attachmentId } });
  await recordEvent(tx, {
    realmId,
    type: 'attachment',
    users: [ownerId],
    event: {
      type: 'attachment',
      op,
      attachment: attachmentDict(a, await linkedMessages(tx, a.id)),
      upload_space_used: await uploadSpaceUsed(tx, realmId),
    },
  });
}

export interface NewAttachment {
  realmId: number;
  ownerId: number;
  pathId: string;
  fileName: string;
  size: number;
  contentType: string;
}

/**
 * Records a stored file as the uploader's attachment and announces it to them. An image of a
 * thumbnailed type has its size read from its header first, as the family does at upload: a
 * message that links it before the thumbnail exists shows it loading at that size.
 */
export async function doCreateAttachment(services: Services, input: NewAttachment) {
  const size = THUMBNAIL_IMAGE_TYPES.has(input.contentType) ? await readImageSize(services.storage, input.pathId, input.size) : null;
  const attachment = await services.db.$transaction(async (tx) => {
    await checkUploadWithinQuotaLocked(tx, input.realmId, input.size);
    // Messages sent before this moment cannot contain the new link: access checks that look
    // for linking messages need only look above this id.
    const [{ max }] = await tx.$queryRawUnsafe<Array<{ max: number | null }>>('SELECT max(id) AS max FROM messages');
    const a = await tx.attachment.create({
      data: { ...input, size: BigInt(input.size), messageIdFloor: max ?? 0, imageWidth: size?.width ?? null, imageHeight: size?.height ?? null },
    });
    await notifyAttachment(tx, input.realmId, input.ownerId, 'add', a.id);
    return a;
  });
  if (attachment.contentType.startsWith('image/')) {
    await services.requestThumbnails(attachment.id).catch((err) => services.log.warn({ err, id: attachment.id }, 'could not queue thumbnails'));
  }
  return attachment;
}

/** The caller's own attachments, with the messages linking to each. */
export async function listAttachments(services: Services, actor: Actor) {
  const { realmId, userId } = actor;
  return services.db.$transaction(async (tx) => {
    const rows = await tx.attachment.findMany({ where: { realmId, ownerId: userId }, orderBy: { id: 'asc' } });
    const attachments = [];
    for (const a of rows) attachments.push(attachmentDict(a, await linkedMessages(tx, a.id)));
    return { attachments, upload_space_used: await uploadSpaceUsed(tx, realmId) };
  });
}

/** Deletes one of the caller's own files: the row, its links, then the stored bytes. */
export async function doDeleteAttachment(services: Services, actor: Actor, attachmentId: number) {
  const { realmId, userId } = actor;
  const removed = await services.db.$transaction(async (tx) => {
    const a = await tx.attachment.findFirst({ where: { id: attachmentId, realmId, ownerId: userId } });
    if (!a) throw errors.invalidAttachment();
    await tx.attachment.delete({ where: { id: a.id } });
    await recordEvent(tx, {
      realmId,
      type: 'attachment',
      users: [userId],
      event: { type: 'attachment', op: 'remove', attachment: { id: a.id }, upload_space_used: await uploadSpaceUsed(tx, realmId) },
    });
    return a;
  });
  await removeStoredFile(services, removed);
}

/** Deletes an attachment's bytes and everything derived from them (thumbnails). */
export async function removeStoredFile(services: Services, a: { pathId: string; thumbnails: unknown }) {
  const keys = [a.pathId, ...thumbnailKeys(a.pathId, a.thumbnails)];
  for (const key of keys) {
    await services.storage.remove(key).catch((err) => services.log.warn({ err, key }, 'could not delete stored file'));
  }
  // A resumable upload leaves its bookkeeping behind until the file goes.
  await services.storage.forgetTusUpload(a.pathId).catch((err) => services.log.warn({ err, key: a.pathId }, 'could not delete upload state'));
}

export function thumbnailKeys(pathId: string, thumbnails: unknown): string[] {
  const formats = Array.isArray(thumbnails) ? (thumbnails as Array<{ name?: unknown }>) : [];
  return formats.filter((f) => typeof f.name === 'string').map((f) => `thumbnail/${pathId}/${f.name as string}`);
}
