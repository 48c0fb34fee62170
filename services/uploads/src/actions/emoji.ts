import sharp from 'sharp';
import type { Tx } from '@chat/db';
import { recordEvent } from '@chat/bus';
import { errors, isAdmin, type Actor } from '@chat/contracts';
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

async function canAddEmoji(services: Services, actor: Actor): Promise<boolean> {
  return hasRealmPermission(services.db, actor.realmId, 'can_add_custom_emoji_group', actor.userId);
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

export interface CheckedEmoji {
  name: string;
  rendered: { animated: boolean; main: Buffer; still: Buffer };
}

/** POST /realm/emoji/{name}, first step: the name, the caller's permission and the decoded image. */
export async function checkAddRealmEmoji(services: Services, actor: Actor, rawName: string, image: Buffer): Promise<CheckedEmoji> {
  const name = rawName.trim().replace(/ /g, '_');
  checkValidEmojiName(name);
  if (!(await canAddEmoji(services, actor))) throw errors.insufficientPermission();
  return { name, rendered: await renderEmoji(image) };
}

/** Stores a checked emoji and announces it; the name is taken only if still free. */
export async function doAddRealmEmoji(services: Services, actor: Actor, checked: CheckedEmoji, image: Buffer): Promise<void> {
  const { name, rendered } = checked;
  const { realmId } = actor;
  await services.db.$transaction(async (tx) => {
    // One writer per realm at a time, so two uploads cannot both take a free name: the name is
    // looked at under that lock, not in the check.
    await tx.$queryRawUnsafe('SELECT 1 FROM realms WHERE id = $1 FOR UPDATE', realmId);
    const taken = await tx.realmEmoji.findFirst({ where: { realmId, name, deactivated: false } });
    if (taken) throw errors.badRequest('A custom emoji with this name already exists.');
    const row = await tx.realmEmoji.create({ data: { realmId, authorId: actor.userId, name, isAnimated: rendered.animated } });
    const fileName = `${row.id}.${rendered.animated ? 'gif' : 'png'}`;
    // Written inside the transaction: if storage fails, no emoji row points at a missing file.
    await services.storage.write(realmEmojiKey(realmId, fileName), rendered.main, rendered.animated ? 'image/gif' : 'image/png');
    if (rendered.animated) await services.storage.write(realmEmojiKey(realmId, `still/${row.id}.png`), rendered.still, 'image/png');
    await services.storage.write(realmEmojiKey(realmId, `${row.id}.original`), image, 'application/octet-stream');
    const saved = await tx.realmEmoji.update({ where: { id: row.id }, data: { fileName } });
    const { event, routing } = emojiEvents(saved, 'add', await realmEmojiDicts(tx, realmId));
    await recordEvent(tx, { realmId, type: 'realm_emoji', users: 'realm', event, routing });
  }, { timeout: 30_000 });
}

/** An active emoji the caller may deactivate: administrators any, others their own. */
export async function checkRemoveRealmEmoji(services: Services, actor: Actor, name: string) {
  const emoji = await services.db.realmEmoji.findFirst({ where: { realmId: actor.realmId, name, deactivated: false } });
  if (!emoji) throw errors.resourceNotFound(`Emoji '${name}' does not exist`);
  if (!isAdmin(actor) && emoji.authorId !== actor.userId) throw errors.badRequest('Must be an organization administrator or emoji author');
  return emoji;
}

/** Deactivates a checked emoji and announces it. Its image stays for old messages. */
export async function doRemoveRealmEmoji(services: Services, actor: Actor, emoji: { id: number }): Promise<void> {
  await services.db.$transaction(async (tx) => {
    const saved = await tx.realmEmoji.update({ where: { id: emoji.id }, data: { deactivated: true } });
    const { event, routing } = emojiEvents(saved, 'update_one', await realmEmojiDicts(tx, actor.realmId));
    await recordEvent(tx, { realmId: actor.realmId, type: 'realm_emoji', users: 'realm', event, routing });
  });
}
