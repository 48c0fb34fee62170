import type { Tx } from '@chat/db';
import type { Services } from '../context';
import { recordEvent } from '@chat/bus';
import { pendingPreviewPaths, PREVIEW_COLUMNS, previewOf, rewriteThumbnailPlaceholders, type PreviewRow } from '../markdown/upload-previews';
import { messageAudience, recipientFlags } from './message-access';

/** How far back the search for messages naming an upload goes, as the uploads service's. */
const RECENT_MESSAGES = 1000;

/**
 * An image's thumbnails were made, or the image turned out to be none (the uploads service's
 * `thumbnails` event): messages that show it loading get the thumbnail, or lose the preview, as
 * the family's thumbnail worker updates them. Each changed message is one transaction and one
 * `update_message` with `rendering_only`, to everyone who has it or may read it, with their flags.
 * Runs again harmlessly: a message without the placeholder is left alone.
 */
export async function doRefreshThumbnailPreviews(services: Services, realmId: number, pathId: string): Promise<number[]> {
  const [row] = await services.db.$queryRawUnsafe<Array<PreviewRow & { id: number; floor: number }>>(
    `SELECT a.id, a.message_id_floor AS floor, ${PREVIEW_COLUMNS} FROM attachments a WHERE a.realm_id = $1 AND a.path_id = $2`,
    realmId,
    pathId,
  );
  if (!row) return [];
  const preview = previewOf(row);
  if (preview && !preview.thumbnail) return [];
  // The messages linking it: those the uploads service has recorded, and the realm's newest
  // since the upload that name it (a link to someone else's file is recorded a little later).
  // The ASCII part of the path id: a link may percent-encode the file name.
  const prefix = `/user_uploads/${pathId.split('/').slice(0, 3).join('/')}/`;
  const messages = await services.db.$queryRawUnsafe<Array<{ id: number }>>(
    `SELECT m.id FROM (
        SELECT am.message_id AS id FROM attachment_messages am WHERE am.attachment_id = $1
        UNION
        SELECT recent.id FROM (SELECT id FROM messages WHERE realm_id = $2 AND id > $3 ORDER BY id DESC LIMIT ${RECENT_MESSAGES}) recent
     ) linking JOIN messages m ON m.id = linking.id
      WHERE strpos(m.rendered_content, 'image-loading-placeholder') > 0 AND strpos(m.rendered_content, $4) > 0 ORDER BY m.id`,
    row.id,
    realmId,
    row.floor,
    prefix,
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
      await recordRenderingOnlyUpdate(tx, realmId, id, m.streamId, m.content, rendered);
      return true;
    });
    if (done) changed.push(id);
  }
  return changed;
}

/**
 * A message's new HTML with nothing else changed (a thumbnail made, a link previewed), stored
 * and sent as the family's `update_message` with `rendering_only` to everyone who has the
 * message or may read it, with their flags. Inside the caller's transaction, the row locked.
 */
export async function recordRenderingOnlyUpdate(tx: Tx, realmId: number, id: number, streamId: number | null, content: string, rendered: string): Promise<void> {
  await tx.message.update({ where: { id }, data: { renderedContent: rendered } });
  const audience = await messageAudience(tx, [id], [streamId]);
  if (!audience.length) return;
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
      content,
      rendered_content: rendered,
    },
    routing: { user_flags: await recipientFlags(tx, id, audience) },
  });
}

/**
 * After a message showing images loading is committed. The thumbnail job may have finished
 * between its rendering and its commit, and the job's event then found no message to update:
 * what is finished by now is applied here; what finishes later comes with its own event.
 */
export async function settlePendingPreviews(services: Services, realmId: number, html: string): Promise<void> {
  const paths = pendingPreviewPaths(html);
  if (!paths.length) return;
  const done = await services.db.$queryRawUnsafe<Array<{ pathId: string }>>(
    'SELECT path_id AS "pathId" FROM attachments WHERE realm_id = $1 AND path_id = ANY($2::text[]) AND thumbnails IS NOT NULL',
    realmId,
    paths,
  );
  for (const { pathId } of done) await doRefreshThumbnailPreviews(services, realmId, pathId);
}
