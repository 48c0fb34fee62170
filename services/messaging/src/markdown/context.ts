import type { Db, Tx } from '@chat/db';
import { linkedPathIds } from '@chat/contracts';
import type { MentionableUser, RenderContext } from './types';
import { loadPreviewSettings, loadUploadPreviews, MAY_PREVIEW } from './upload-previews';

export function emptyRenderContext(realmUrl: string): RenderContext {
  return {
    realmUrl,
    inlineImagePreview: false,
    uploadPreviews: new Map(),
    urlEmbedPreview: false,
    urlEmbedData: new Map(),
    usersByName: new Map(),
    usersById: new Map(),
    groupsByName: new Map(),
    streamsByName: new Map(),
    realmEmoji: new Map(),
    linkifiers: [],
    translateEmoticons: false,
    defaultCodeBlockLanguage: '',
  };
}

const USER_SYNTAX = /@_?\*\*([^*\n]+?)\*\*/g;
const GROUP_SYNTAX = /@_?\*([^*\n]+?)\*/g;
const CHANNEL_SYNTAX = /#\*\*([^*\n>]+)/g;
const EMOJI_SYNTAX = /:([\w+-]+):/g;
/** A fence naming no language: the realm's default language applies to it. */
const BARE_FENCE = /^ {0,3}(`{3,}|~{3,})[ \t]*$/m;
/** Something an emoticon could be: the sender's translate_emoticons matters. */
const EMOTICON_LIKE = /:[()|/DoOpP]|\(:|<3|;\)/;

/**
 * Everything `source` can refer to, looked up in the realm: users and groups named in mention
 * syntax, channels named in link syntax that the author may see, custom emoji, linkifiers, and
 * the uploaded images it links to that the author may read (with the realm's
 * `inline_image_preview`), looked up only when it links to an upload.
 */
export async function loadRenderContext(
  db: Db | Tx, realmId: number, realmUrl: string, source: string, authorId?: number,
  /** The realm's linkifiers when the caller reads them with other things (a channel send). */
  heldLinkifiers?: Promise<RenderContext['linkifiers']>,
): Promise<RenderContext> {
  const ctx = emptyRenderContext(realmUrl);
  const names = new Set<string>();
  const ids = new Set<number>();
  for (const m of source.matchAll(USER_SYNTAX)) {
    const text = m[1].trim();
    const bar = text.lastIndexOf('|');
    if (bar >= 0 && /^\d+$/.test(text.slice(bar + 1))) ids.add(Number(text.slice(bar + 1)));
    else names.add(text.toLowerCase());
  }
  // The lookups are independent: one round trip of parallel queries, not one after another.
  const groupNames = [...source.matchAll(GROUP_SYNTAX)].map((m) => m[1].trim().toLowerCase());
  const channelNames = [...source.matchAll(CHANNEL_SYNTAX)].map((m) => m[1].trim().toLowerCase());
  const emojiNames = [...source.matchAll(EMOJI_SYNTAX)].map((m) => m[1]);
  const uploads = authorId === undefined ? [] : linkedPathIds(source);
  const needsPrefs = BARE_FENCE.test(source) || (authorId !== undefined && EMOTICON_LIKE.test(source));
  const [users, groups, streams, emoji, linkers, previews, previewSettings, prefs] = await Promise.all([
    names.size || ids.size
      ? db.$queryRawUnsafe<MentionableUser[]>(
          `SELECT id, full_name AS "fullName", email FROM users
            WHERE realm_id = $1 AND is_active AND (lower(full_name) = ANY($2::text[]) OR id = ANY($3::int[]))`,
          realmId,
          [...names],
          [...ids],
        )
      : [],
    groupNames.length
      ? db.$queryRawUnsafe<Array<{ id: number; name: string }>>(
          `SELECT id, name FROM user_groups WHERE realm_id = $1 AND NOT deactivated AND NOT is_system_group AND lower(name) = ANY($2::text[])`,
          realmId,
          groupNames,
        )
      : [],
    // Private channels are linked only when the author is subscribed to them.
    channelNames.length
      ? db.$queryRawUnsafe<Array<{ id: number; name: string }>>(
          `SELECT s.id, s.name FROM streams s
            WHERE s.realm_id = $1 AND s.name_key = ANY($2::text[])
              AND (NOT s.invite_only OR EXISTS (SELECT 1 FROM subscriptions sub WHERE sub.stream_id = s.id AND sub.user_id = $3 AND sub.active))`,
          realmId,
          channelNames,
          authorId ?? 0,
        )
      : [],
    emojiNames.length ? customEmoji(db, realmId, emojiNames) : [],
    heldLinkifiers ?? linkifiers(db, realmId),
    uploads.length ? loadUploadPreviews(db, realmId, authorId!, uploads) : null,
    authorId !== undefined && MAY_PREVIEW.test(source) ? loadPreviewSettings(db, realmId, authorId) : null,
    needsPrefs ? renderPrefs(db, realmId, authorId ?? 0) : null,
  ]);
  for (const u of users) {
    ctx.usersById.set(u.id, u);
    const key = u.fullName.toLowerCase();
    ctx.usersByName.set(key, [...(ctx.usersByName.get(key) ?? []), u]);
  }
  for (const g of groups) ctx.groupsByName.set(g.name.toLowerCase(), g);
  for (const s of streams) ctx.streamsByName.set(s.name.toLowerCase(), s);
  for (const e of emoji) ctx.realmEmoji.set(e.name, e);
  ctx.linkifiers = linkers;
  if (prefs) Object.assign(ctx, prefs);
  if (previews) ctx.uploadPreviews = previews;
  if (previewSettings) Object.assign(ctx, previewSettings);
  return ctx;
}

/** The realm's default code block language and the sender's translate_emoticons. */
async function renderPrefs(db: Db | Tx, realmId: number, authorId: number) {
  const [row] = await db.$queryRawUnsafe<Array<{ lang: string | null; emoticons: boolean | null }>>(
    `SELECT (SELECT settings->>'default_code_block_language' FROM realms WHERE id = $1) AS lang,
            (SELECT (settings->>'translate_emoticons')::boolean FROM users WHERE id = $2 AND realm_id = $1) AS emoticons`,
    realmId,
    authorId,
  );
  return { defaultCodeBlockLanguage: row?.lang ?? '', translateEmoticons: row?.emoticons === true };
}

/** Custom emoji of the realm, where the uploads area has created its table. */
let emojiTableSeen = false;

async function customEmoji(db: Db | Tx, realmId: number, names: string[]) {
  if (!emojiTableSeen) {
    // Once the table exists it stays: asked until then only.
    const [exists] = await db.$queryRawUnsafe<Array<{ t: string | null }>>(`SELECT to_regclass('realm_emoji')::text AS t`);
    if (!exists?.t) return [];
    emojiTableSeen = true;
  }
  const rows = await db.$queryRawUnsafe<Array<{ id: number; name: string; file_name: string | null }>>(
    `SELECT id, name, file_name FROM realm_emoji WHERE realm_id = $1 AND NOT deactivated AND name = ANY($2::text[])`,
    realmId,
    names,
  );
  return rows.map((r) => ({ id: String(r.id), name: r.name, url: `/user_avatars/${realmId}/emoji/images/${r.file_name ?? r.id}` }));
}

/** In this order and shape as the channel send's statement reads them too (actions/send/reads.ts). */
async function linkifiers(db: Db | Tx, realmId: number) {
  const rows = await db.linkifier.findMany({ where: { realmId }, orderBy: [{ order: 'asc' }, { id: 'asc' }] });
  return rows.map((r) => ({ id: r.id, pattern: r.pattern, urlTemplate: r.urlTemplate }));
}
