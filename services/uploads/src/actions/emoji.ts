import sharp from 'sharp';
import type { Tx } from '@chat/db';
import { recordEvent } from '@chat/bus';
import { errors, ROLE, type Identity } from '@chat/contracts';
import { hasRealmPermission } from '@chat/realm';
import { realmEmojiKey, realmEmojiMap, realmEmojiObject, type RealmEmojiRow } from '@chat/wire';
import type { Services } from '../context';

/** Emoji are shown at 64 px at most; larger images are scaled down on upload. */
const EMOJI_SIZE = 64;
const MAX_PIXELS = 50_000_000;

/** Every custom emoji of the realm, deactivated ones included, keyed by id (objects from @chat/wire). */
export async function realmEmojiDicts(db: Pick<Tx, 'realmEmoji'>, realmId: number) {
  return realmEmojiMap(await db.realmEmoji.findMany({ where: { realmId, fileName: { not: null } }, orderBy: { id: 'asc' } }));
}

/** Name rules of this API family: lowercase letters, digits, "-" and "_", ending in a letter or digit. */
export function checkValidEmojiName(name: string): void {
  if (!name) throw errors.badRequest('Emoji name is missing');
  if (/^[0-9a-z_-]+$/.test(name)) {
    if (/[_-]$/.test(name)) throw errors.badRequest('Emoji names must end with either a letter or digit.');
    return;
  }
  throw errors.badRequest('Emoji names must contain only lowercase alphanumeric characters, hyphen, and underscore.');
}

async function canAddEmoji(s: Services, identity: Identity): Promise<boolean> {
  return hasRealmPermission(s.db, identity.realmId, 'can_add_custom_emoji_group', identity.userId!);
}

/** Scaled emoji image: animated GIF for animations, PNG otherwise; plus a still frame for animations. */
async function renderEmoji(image: Buffer): Promise<{ animated: boolean; main: Buffer; still: Buffer }> {
  try {
    const meta = await sharp(image, { animated: true, limitInputPixels: MAX_PIXELS }).metadata();
    const animated = (meta.pages ?? 1) > 1;
    const fit = { width: EMOJI_SIZE, height: EMOJI_SIZE, fit: 'inside' as const, withoutEnlargement: true };
    const still = await sharp(image, { limitInputPixels: MAX_PIXELS }).resize(fit).png().toBuffer();
    const main = animated ? await sharp(image, { animated: true, limitInputPixels: MAX_PIXELS }).resize(fit).gif().toBuffer() : still;
    return { animated, main, still };
  } catch {
    throw errors.badImage();
  }
}

/**
 * `add` carries the new emoji as `emoji`; `update_one` only what changed (`emoji_id` and
 * `data`), the shape clients declaring individual_emoji_changes parse.
 */
function emojiEvents(changed: RealmEmojiRow, op: 'add' | 'update_one', all: Record<string, unknown>) {
  const dict = realmEmojiObject(changed);
  return {
    event: op === 'add'
      ? { type: 'realm_emoji', op, emoji: dict }
      : { type: 'realm_emoji', op, emoji_id: dict.id, data: { deactivated: dict.deactivated } },
    // Clients without the individual_emoji_changes capability get the whole set instead.
    routing: { capability: 'individual_emoji_changes', fallback_event: { type: 'realm_emoji', op: 'update', realm_emoji: all } },
  };
}

export async function checkAddRealmEmoji(s: Services, identity: Identity, rawName: string, image: Buffer) {
  const name = rawName.trim().replace(/ /g, '_');
  checkValidEmojiName(name);
  if (!(await canAddEmoji(s, identity))) throw errors.insufficientPermission();
  const rendered = await renderEmoji(image);
  return s.db.$transaction(async (tx) => {
    // One writer per realm at a time, so two uploads cannot both take a free name.
    await tx.$queryRawUnsafe('SELECT 1 FROM realms WHERE id = $1 FOR UPDATE', identity.realmId);
    const taken = await tx.realmEmoji.findFirst({ where: { realmId: identity.realmId, name, deactivated: false } });
    if (taken) throw errors.badRequest('A custom emoji with this name already exists.');
    const row = await tx.realmEmoji.create({ data: { realmId: identity.realmId, authorId: identity.userId!, name, isAnimated: rendered.animated } });
    const fileName = `${row.id}.${rendered.animated ? 'gif' : 'png'}`;
    // Written inside the transaction: if storage fails, no emoji row points at a missing file.
    await s.storage.write(realmEmojiKey(identity.realmId, fileName), rendered.main, rendered.animated ? 'image/gif' : 'image/png');
    if (rendered.animated) await s.storage.write(realmEmojiKey(identity.realmId, `still/${row.id}.png`), rendered.still, 'image/png');
    await s.storage.write(realmEmojiKey(identity.realmId, `${row.id}.original`), image, 'application/octet-stream');
    const saved = await tx.realmEmoji.update({ where: { id: row.id }, data: { fileName } });
    const { event, routing } = emojiEvents(saved, 'add', await realmEmojiDicts(tx, identity.realmId));
    await recordEvent(tx, { realmId: identity.realmId, type: 'realm_emoji', users: 'realm', event, routing });
  }, { timeout: 30_000 });
}

/** Deactivates an emoji (administrators, or its author). Its image stays for old messages. */
export async function checkRemoveRealmEmoji(s: Services, identity: Identity, name: string) {
  await s.db.$transaction(async (tx) => {
    const emoji = await tx.realmEmoji.findFirst({ where: { realmId: identity.realmId, name, deactivated: false } });
    if (!emoji) throw errors.resourceNotFound(`Emoji '${name}' does not exist`);
    const isAdmin = identity.role !== undefined && identity.role <= ROLE.ADMINISTRATOR;
    if (!isAdmin && emoji.authorId !== identity.userId) throw errors.badRequest('Must be an organization administrator or emoji author');
    const saved = await tx.realmEmoji.update({ where: { id: emoji.id }, data: { deactivated: true } });
    const { event, routing } = emojiEvents(saved, 'update_one', await realmEmojiDicts(tx, identity.realmId));
    await recordEvent(tx, { realmId: identity.realmId, type: 'realm_emoji', users: 'realm', event, routing });
  });
}
