/**
 * A realm's custom emoji, as GET /realm/emoji, realm_emoji events and register's realm_emoji
 * give them: a map from the emoji's id (as a string) to its object, deactivated emoji included
 * (old messages still show them). The uploads service stores the images; its storage keys and
 * the URLs clients get are the same path.
 */
import type { RealmEmoji } from '@chat/db';

export type RealmEmojiRow = Pick<RealmEmoji, 'id' | 'realmId' | 'name' | 'fileName' | 'isAnimated' | 'deactivated' | 'authorId'>;

/** Storage key of an emoji image; its URL is the same path below "/user_". */
export function realmEmojiKey(realmId: number, file: string): string {
  return `avatars/${realmId}/emoji/images/${file}`;
}

export function realmEmojiObject(e: RealmEmojiRow) {
  const file = e.fileName ?? String(e.id);
  const stillFile = `${file.replace(/\.[^.]+$/, '')}.png`;
  return {
    id: String(e.id),
    name: e.name,
    source_url: `/user_${realmEmojiKey(e.realmId, file)}`,
    still_url: e.isAnimated ? `/user_${realmEmojiKey(e.realmId, `still/${stillFile}`)}` : null,
    deactivated: e.deactivated,
    author_id: e.authorId,
  };
}

/**
 * The realm_emoji map from rows in id order. An emoji whose image is still being stored (no
 * file name yet) is not shown.
 */
export function realmEmojiMap(rows: RealmEmojiRow[]): Record<string, ReturnType<typeof realmEmojiObject>> {
  return Object.fromEntries(rows.filter((r) => r.fileName !== null).map((r) => [String(r.id), realmEmojiObject(r)]));
}
