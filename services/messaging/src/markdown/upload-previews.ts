/**
 * Uploaded images shown in messages, as the family's server shows them: a link to an uploaded
 * image gets a `message_inline_image` block with the image's thumbnail, or a loading placeholder
 * while the uploads service has not made it yet. What an upload looks like (its size and type,
 * whether its thumbnails exist) is read before rendering (`loadUploadPreviews`); the HTML is
 * built here, both when a message is rendered and when its placeholders are replaced once the
 * thumbnails exist (actions/thumbnail-renders.ts).
 */
import { ROLE } from '@chat/contracts';
import type { Db, Tx } from '@chat/db';
import { realmPolicies } from '@chat/realm';
import { defaultThumbnailFormat, THUMBNAIL_IMAGE_TYPES } from '@chat/wire';

/** What a message shows of one uploaded image. */
export interface UploadPreview {
  contentType: string;
  width: number;
  height: number;
  /** The thumbnail to show (its URL, and whether it is animated); null while it is being made. */
  thumbnail: { url: string; animated: boolean } | null;
}

/** The family's spinner, shown until the thumbnail exists. */
export const LOADING_IMAGE_SRC = '/static/images/loading/loader-black.svg';

/** An attachment's row as the previews read it. */
export interface PreviewRow {
  pathId: string;
  contentType: string;
  width: number | null;
  height: number | null;
  frames: number | null;
  thumbnails: unknown;
}

/**
 * What a message shows of an upload, or null for one that is no image to preview: not of an
 * image type, its header never parsed, or the thumbnail job found it undecodable (an empty list).
 */
export function previewOf(row: PreviewRow): UploadPreview | null {
  if (!THUMBNAIL_IMAGE_TYPES.has(row.contentType) || !row.width || !row.height) return null;
  if (row.thumbnails === null || row.thumbnails === undefined) return { contentType: row.contentType, width: row.width, height: row.height, thumbnail: null };
  const made = Array.isArray(row.thumbnails) ? (row.thumbnails as Array<{ name?: unknown }>).map((t) => t.name).filter((n): n is string => typeof n === 'string') : [];
  if (!made.length) return null;
  const animated = (row.frames ?? 1) > 1;
  const wanted = defaultThumbnailFormat(animated);
  const name = made.includes(wanted.name) ? wanted.name : made[0]!;
  return {
    contentType: row.contentType,
    width: row.width,
    height: row.height,
    thumbnail: { url: `/user_uploads/thumbnail/${encodeURI(row.pathId)}/${name}`, animated: animated && name === wanted.name },
  };
}

const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The `<img>` of a preview, its attributes in the family's (alphabetical) order. */
export function previewImgHtml(p: UploadPreview): string {
  const common = `data-original-content-type="${escapeAttr(p.contentType)}" data-original-dimensions="${p.width}x${p.height}"`;
  if (!p.thumbnail) return `<img class="image-loading-placeholder" ${common} src="${LOADING_IMAGE_SRC}">`;
  return `<img ${p.thumbnail.animated ? 'data-animated="true" ' : ''}${common} src="${escapeAttr(p.thumbnail.url)}">`;
}

/** The block after the paragraph: `href` and `title` already escaped as attributes. */
export function inlineImageHtml(href: string, title: string | null, p: UploadPreview): string {
  return `<div class="message_inline_image"><a href="${href}"${title === null ? '' : ` title="${title}"`}>${previewImgHtml(p)}</a></div>`;
}

/** The upload a `/user_uploads/...` href names (its path id), or null for any other link. */
export function uploadPathOfHref(href: string): string | null {
  if (!href.startsWith('/user_uploads/')) return null;
  const raw = href.slice('/user_uploads/'.length).split(/[?#]/)[0]!;
  try {
    return decodeURI(raw);
  } catch {
    return raw;
  }
}

const PLACEHOLDER_BLOCK = /<div class="message_inline_image"><a href="([^"]*)"([^>]*)><img class="image-loading-placeholder"[^>]*><\/a><\/div>/g;

/**
 * Rendered HTML with the loading placeholders of `pathId` replaced by its thumbnail, or, when it
 * turned out to be no image (`preview` null), with their blocks removed, as the family's
 * rewrite_thumbnailed_images does. Unchanged while the thumbnail is still being made.
 */
export function rewriteThumbnailPlaceholders(html: string, pathId: string, preview: UploadPreview | null): string {
  if (preview && !preview.thumbnail) return html;
  const rewritten = html.replace(PLACEHOLDER_BLOCK, (block, href: string, rest: string) => {
    if (uploadPathOfHref(href.replace(/&amp;/g, '&')) !== pathId) return block;
    return preview ? `<div class="message_inline_image"><a href="${href}"${rest}>${previewImgHtml(preview)}</a></div>` : '';
  });
  return rewritten === html ? html : rewritten.trim();
}

/** The uploads whose loading placeholder rendered HTML shows. */
export function pendingPreviewPaths(html: string): string[] {
  if (!html.includes('image-loading-placeholder')) return [];
  const paths = new Set<string>();
  for (const m of html.matchAll(PLACEHOLDER_BLOCK)) {
    const pathId = uploadPathOfHref(m[1]!.replace(/&amp;/g, '&'));
    if (pathId !== null) paths.add(pathId);
  }
  return [...paths];
}

/** Rows of the uploads a source links to, by path id. */
export const PREVIEW_COLUMNS = `a.path_id AS "pathId", a.content_type AS "contentType", a.image_width AS width,
  a.image_height AS height, a.image_frames AS frames, a.thumbnails`;

/**
 * The previews of the uploads `pathIds` names that `authorId` may read (by the uploads service's
 * rule: their own, or linked from a message they can read). A file the author cannot read stays
 * a link: a preview would show its size and type, and its readers' thumbnails would not load.
 */
export async function loadUploadPreviews(db: Db | Tx, realmId: number, authorId: number, pathIds: string[]): Promise<Map<string, UploadPreview>> {
  const rows = await db.$queryRawUnsafe<PreviewRow[]>(
    `SELECT ${PREVIEW_COLUMNS} FROM attachments a
      WHERE a.realm_id = $1 AND a.path_id = ANY($2::text[]) AND (a.owner_id = $3 OR EXISTS (
        SELECT 1 FROM attachment_messages am JOIN messages m ON m.id = am.message_id LEFT JOIN streams st ON st.id = m.stream_id
         WHERE am.attachment_id = a.id AND (
               (st.id IS NOT NULL AND NOT st.invite_only AND (SELECT role FROM users WHERE id = $3) <> $4)
            OR EXISTS (SELECT 1 FROM user_messages um WHERE um.user_id = $3 AND um.message_id = m.id)
            OR (st.history_public_to_subscribers AND EXISTS (
                 SELECT 1 FROM subscriptions sub WHERE sub.user_id = $3 AND sub.stream_id = st.id AND sub.active)))))`,
    realmId,
    pathIds,
    authorId,
    ROLE.GUEST,
  );
  const previews = new Map<string, UploadPreview>();
  for (const row of rows) {
    const preview = previewOf(row);
    if (preview) previews.set(row.pathId, preview);
  }
  return previews;
}

/** Whether a source may get previews at all: it links somewhere (an upload, a URL, a path). */
export const MAY_PREVIEW = /https?:\/\/|\/user_uploads\/|\]\(\/|www\./i;

/**
 * The realm's preview settings for a message by `authorId`: `inline_image_preview` (images and
 * videos shown) and `inline_url_embed_preview` (pages previewed), the latter never for a bot's
 * message, as the family's.
 */
export async function loadPreviewSettings(db: Db | Tx, realmId: number, authorId: number): Promise<{ inlineImagePreview: boolean; urlEmbedPreview: boolean }> {
  const [row] = await db.$queryRawUnsafe<Array<{ settings: unknown; isBot: boolean | null }>>(
    'SELECT r.settings, (SELECT u.is_bot FROM users u WHERE u.id = $2) AS "isBot" FROM realms r WHERE r.id = $1',
    realmId,
    authorId,
  );
  const policies = realmPolicies(row?.settings);
  return { inlineImagePreview: policies.inline_image_preview !== false, urlEmbedPreview: policies.inline_url_embed_preview === true && row?.isBot !== true };
}
