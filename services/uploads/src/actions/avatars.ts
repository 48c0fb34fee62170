import { createHmac } from 'node:crypto';
import sharp from 'sharp';
import { recordEvent } from '@chat/bus';
import { errors, isAdmin, ROLE, type Actor } from '@chat/contracts';
import { realmPolicies } from '@chat/realm';
import { avatarUrl as wireAvatarUrl, gravatarUrl, MEDIUM_AVATAR_SIZE } from '@chat/wire';
import type { Services } from '../context';

/** Sizes clients of this API family expect: the default avatar and the "medium" one. */
const DEFAULT_SIZE = 100;
const MEDIUM_SIZE = MEDIUM_AVATAR_SIZE;
/** Larger images are refused rather than decoded (decompression bombs). */
const MAX_PIXELS = 50_000_000;

type AvatarUser = { id: number; realmId: number; deliveryEmail: string; avatarSource: string; avatarVersion: number };

/**
 * Storage key of a user's avatar files. Salted, so that avatars cannot be fetched by walking
 * user ids; every replica derives the same key from the shared salt.
 */
export function avatarBaseKey(salt: string, realmId: number, userId: number): string {
  return `avatars/${realmId}/${createHmac('sha1', salt).update(String(userId)).digest('hex')}`;
}

/** The avatar URL other services hand out too (one definition, in @chat/wire). */
export function avatarUrl(realmUrl: string, user: AvatarUser, medium = false): string {
  return wireAvatarUrl(user, realmUrl, medium);
}

/** Where GET /avatar/{id} sends the browser: the stored file itself for an uploaded avatar. */
export function avatarTarget(salt: string, user: AvatarUser, medium: boolean): string {
  if (user.avatarSource !== 'U') return gravatarUrl(user.deliveryEmail, user.avatarVersion, medium);
  return `/user_${avatarBaseKey(salt, user.realmId, user.id)}${medium ? '-medium' : ''}.png?version=${user.avatarVersion}`;
}

/** Whether the caller may change their avatar now; a realm may reserve that to administrators. */
async function checkAvatarChangeAllowed(services: Services, actor: Actor): Promise<void> {
  const realm = await services.db.realm.findUniqueOrThrow({ where: { id: actor.realmId }, select: { settings: true } });
  if (realmPolicies(realm.settings).avatar_changes_disabled && !isAdmin(actor)) throw errors.avatarChangesDisabled();
}

export interface RenderedAvatar {
  small: Buffer;
  medium: Buffer;
}

/** Square PNGs of the uploaded image at both sizes; refuses what is not a decodable image. */
export async function renderAvatar(image: Buffer): Promise<RenderedAvatar> {
  try {
    const source = sharp(image, { limitInputPixels: MAX_PIXELS }).rotate();
    const [small, medium] = await Promise.all([
      source.clone().resize(DEFAULT_SIZE, DEFAULT_SIZE, { fit: 'cover' }).png().toBuffer(),
      source.clone().resize(MEDIUM_SIZE, MEDIUM_SIZE, { fit: 'cover', withoutEnlargement: false }).png().toBuffer(),
    ]);
    return { small, medium };
  } catch {
    throw errors.badImage();
  }
}

/** Whose avatar changes: a person changing their own, or a bot whose avatar was handed over. */
export interface AvatarTarget {
  userId: number;
  realmId: number;
  realmUrl: string;
}

/**
 * Records the new avatar source, bumps the version and tells the realm, in one transaction; a
 * bot's owner and the administrators also get the bot's new `avatar_url` (realm_bot), as the
 * family's notify_avatar_url_change sends them.
 */
export async function doChangeAvatarFields(services: Services, target: AvatarTarget, source: 'U' | 'G') {
  return services.db.$transaction(async (tx) => {
    const user = await tx.user.update({
      where: { id: target.userId },
      data: { avatarSource: source, avatarVersion: { increment: 1 } },
    });
    await recordEvent(tx, {
      realmId: target.realmId,
      type: 'realm_user',
      users: 'realm',
      event: {
        type: 'realm_user',
        op: 'update',
        person: {
          user_id: user.id,
          avatar_source: user.avatarSource,
          avatar_url: avatarUrl(target.realmUrl, user),
          avatar_url_medium: avatarUrl(target.realmUrl, user, true),
          avatar_version: user.avatarVersion,
        },
      },
    });
    if (user.isBot) {
      const admins = await tx.user.findMany({ where: { realmId: target.realmId, isActive: true, isBot: false, role: { lte: ROLE.ADMINISTRATOR } }, select: { id: true } });
      const audience = new Set(admins.map((a) => a.id));
      if (user.botOwnerId !== null) audience.add(user.botOwnerId);
      await recordEvent(tx, {
        realmId: target.realmId,
        type: 'realm_bot',
        users: [...audience].sort((a, b) => a - b),
        event: { type: 'realm_bot', op: 'update', bot: { user_id: user.id, avatar_url: avatarUrl(target.realmUrl, user) } },
      });
    }
    return user;
  });
}

/** Stores an avatar's files (the original beside them) under the user's salted key. */
export async function storeAvatarFiles(services: Services, realmId: number, userId: number, image: Buffer, rendered: RenderedAvatar): Promise<void> {
  const base = avatarBaseKey(services.config.AVATAR_SALT, realmId, userId);
  await services.storage.write(`${base}.original`, image, 'application/octet-stream');
  await services.storage.write(`${base}-medium.png`, rendered.medium, 'image/png');
  await services.storage.write(`${base}.png`, rendered.small, 'image/png');
}

/** POST /users/me/avatar, first step: the realm's policy, then the image decoded at both sizes. */
export async function checkSetAvatar(services: Services, actor: Actor, image: Buffer): Promise<RenderedAvatar> {
  await checkAvatarChangeAllowed(services, actor);
  return renderAvatar(image);
}

/** Stores the checked avatar (the original beside it) and makes it the caller's. */
export async function doSetAvatar(services: Services, actor: Actor, image: Buffer, rendered: RenderedAvatar) {
  await storeAvatarFiles(services, actor.realmId, actor.userId, image, rendered);
  const user = await doChangeAvatarFields(services, actor, 'U');
  return { avatar_url: avatarUrl(actor.realmUrl, user) };
}

/** DELETE /users/me/avatar may go ahead: the same policy as setting one. */
export async function checkDeleteAvatar(services: Services, actor: Actor): Promise<void> {
  await checkAvatarChangeAllowed(services, actor);
}

/** Back to the Gravatar: the source changes first, then the stored files go. */
export async function doDeleteAvatar(services: Services, actor: Actor) {
  let user = await services.db.user.findUniqueOrThrow({ where: { id: actor.userId } });
  if (user.avatarSource === 'U') {
    user = await doChangeAvatarFields(services, actor, 'G');
    const base = avatarBaseKey(services.config.AVATAR_SALT, actor.realmId, actor.userId);
    for (const key of [`${base}.png`, `${base}-medium.png`, `${base}.original`]) {
      await services.storage.remove(key).catch((err) => services.log.warn({ err, key }, 'could not delete avatar file'));
    }
  }
  return { avatar_url: avatarUrl(actor.realmUrl, user) };
}

/** The user an /avatar/{id or email} path names, in the caller's realm; null when there is none. */
export async function findAvatarUser(services: Services, realmId: number, idOrEmail: string) {
  const select = { id: true, realmId: true, deliveryEmail: true, avatarSource: true, avatarVersion: true } as const;
  if (/^\d+$/.test(idOrEmail)) {
    const id = Number(idOrEmail);
    if (!Number.isSafeInteger(id)) return null;
    return services.db.user.findFirst({ where: { id, realmId }, select });
  }
  return services.db.user.findFirst({ where: { realmId, email: { equals: idOrEmail, mode: 'insensitive' } }, select });
}

export { gravatarUrl };
