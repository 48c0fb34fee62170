import type { Services } from '../context';
import { recordEvent } from '../lib/outbox';
import { PREVIEW_COLUMNS, previewOf, rewriteThumbnailPlaceholders, type PreviewRow } from '../markdown/upload-previews';
import { messageAudience, recipientFlags } from './message-access';

/**
 * An image's thumbnails were made, or the image turned out to be none (the uploads service's
 * `thumbnails` event): messages that show it loading get the thumbnail, or lose the preview, as
 * the family's thumbnail worker updates them. Each changed message is one transaction and one
 * `update_message` with `rendering_only`, to everyone who has it or may read it, with their flags.
 * Runs again harmlessly: a message without the placeholder is left alone.
 */
export async function doRefreshThumbnailPreviews(services: Services, realmId: number, pathId: string): Promise<number[]> {
  const [row] = await services.db.$queryRawUnsafe<Array<PreviewRow & { id: number }>>(
    `SELECT a.id, ${PREVIEW_COLUMNS} FROM attachments a WHERE a.realm_id = $1 AND a.path_id = $2`,
    realmId,
    pathId,
  );
  if (!row) return [];
  const preview = previewOf(row);
  if (preview && !preview.thumbnail) return [];
  const messages = await services.db.$queryRawUnsafe<Array<{ id: number }>>(
    `SELECT m.id FROM attachment_messages am JOIN messages m ON m.id = am.message_id
      WHERE am.attachment_id = $1 AND strpos(m.rendered_content, 'image-loading-placeholder') > 0 ORDER BY m.id`,
    row.id,
  );
  const changed: number[] = [];
  for (const { id } of messages) {
    const done = await services.db.$transaction(async (tx) => {
      // Row lock: an edit of the same message waits, so neither overwrites the other.
      const [m] = await tx.$queryRawUnsafe<Array<{ content: string; rendered: string; streamId: number | null }>>(
        'SELECT content, rendered_content AS rendered, stream_id AS "streamId" FROM messages WHERE id = $1 FOR UPDATE',
        id,
      );
      if (!m) return false;
      const rendered = rewriteThumbnailPlaceholders(m.rendered, pathId, preview);
      if (rendered === m.rendered) return false;
      await tx.message.update({ where: { id }, data: { renderedContent: rendered } });
      const audience = await messageAudience(tx, [id], [m.streamId]);
      if (!audience.length) return true;
      await recordEvent(tx, {
        realmId,
        type: 'update_message',
        users: audience,
        event: {
          type: 'update_message',
          user_id: null,
          edit_timestamp: Math.floor(Date.now() / 1000),
          message_id: id,
          message_ids: [id],
          rendering_only: true,
          content: m.content,
          rendered_content: rendered,
        },
        routing: { user_flags: await recipientFlags(tx, id, audience) },
      });
      return true;
    });
    if (done) changed.push(id);
  }
  return changed;
}
