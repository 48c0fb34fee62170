import sharp, { type Sharp } from 'sharp';
import { recordEvent } from '@chat/bus';
import { checkAdmin, errors, type Actor } from '@chat/contracts';
import type { Realm } from '@chat/db';
import { realmIconSource, realmIconUrl, realmLogoData, realmLogoUrl } from '@chat/wire';
import type { Services } from '../context';

/**
 * The realm's own images: the square icon and the day and night logos. Each is one column of
 * `realms` holding the served URL with a version, one stored PNG (plus the original) and one
 * `realm` `update_dict` property; only the size and the event data differ.
 */
export type RealmImageKind = 'icon' | 'logo' | 'night_logo';

interface KindSpec {
  column: 'iconUrl' | 'logoUrl' | 'nightLogoUrl';
  resize: (image: Sharp) => Sharp;
  data: (realm: Realm) => Record<string, string>;
}

const MAX_PIXELS = 50_000_000;

const KINDS: Record<RealmImageKind, KindSpec> = {
  icon: {
    column: 'iconUrl',
    resize: (img) => img.resize(100, 100, { fit: 'cover' }),
    data: (realm) => ({ icon_url: realmIconUrl(realm), icon_source: realmIconSource(realm) }),
  },
  // Logos keep their aspect ratio: a wordmark fits in 800 x 100, never enlarged.
  logo: {
    column: 'logoUrl',
    resize: (img) => img.resize(800, 100, { fit: 'inside', withoutEnlargement: true }),
    data: (realm) => realmLogoData(realm, false),
  },
  night_logo: {
    column: 'nightLogoUrl',
    resize: (img) => img.resize(800, 100, { fit: 'inside', withoutEnlargement: true }),
    data: (realm) => realmLogoData(realm, true),
  },
};

export const realmImageKey = (realmId: number, kind: RealmImageKind) => `avatars/${realmId}/realm/${kind}.png`;
const originalKey = (realmId: number, kind: RealmImageKind) => `avatars/${realmId}/realm/${kind}.original`;

function versionOf(url: string | null): number {
  const m = url ? /[?&]version=(\d+)/.exec(url) : null;
  return m ? Number(m[1]) : 0;
}

async function announce(services: Services, realmId: number, kind: RealmImageKind, url: string | null) {
  const spec = KINDS[kind];
  return services.db.$transaction(async (tx) => {
    const realm = await tx.realm.update({ where: { id: realmId }, data: { [spec.column]: url } });
    const data = spec.data(realm);
    await recordEvent(tx, {
      realmId,
      type: 'realm',
      users: 'realm',
      event: { type: 'realm', op: 'update_dict', property: kind, data },
    });
    return data;
  });
}

/** A new image of the realm, first step: administrators only, and an image that decodes. Answers the PNG to store. */
export async function checkSetRealmImage(actor: Actor, kind: RealmImageKind, image: Buffer): Promise<Buffer> {
  checkAdmin(actor);
  try {
    return await KINDS[kind].resize(sharp(image, { limitInputPixels: MAX_PIXELS }).rotate()).png().toBuffer();
  } catch {
    throw errors.badImage();
  }
}

/** Stores a checked image of the realm and tells everyone; answers the event data. */
export async function doSetRealmImage(services: Services, actor: Actor, kind: RealmImageKind, image: Buffer, png: Buffer) {
  const realm = await services.db.realm.findUniqueOrThrow({ where: { id: actor.realmId } });
  await services.storage.write(realmImageKey(realm.id, kind), png, 'image/png');
  await services.storage.write(originalKey(realm.id, kind), image, 'application/octet-stream');
  // The version in the URL changes with every upload, so cached copies are not shown.
  const url = `/user_${realmImageKey(realm.id, kind)}?version=${versionOf(realm[KINDS[kind].column]) + 1}`;
  return announce(services, realm.id, kind, url);
}

/** Back to the default image (the caller was checked an administrator). */
export async function doDeleteRealmImage(services: Services, actor: Actor, kind: RealmImageKind) {
  const result = await announce(services, actor.realmId, kind, null);
  await services.storage.remove(realmImageKey(actor.realmId, kind)).catch(() => undefined);
  await services.storage.remove(originalKey(actor.realmId, kind)).catch(() => undefined);
  return result;
}

/**
 * Where the realm's current icon or logo is served: the uploaded image (its URL carries its
 * version) or the default (the identicon, the default logo). Any member may ask.
 */
export async function accessRealmImageUrl(services: Services, actor: Actor, kind: RealmImageKind): Promise<string> {
  const realm = await services.db.realm.findUniqueOrThrow({ where: { id: actor.realmId } });
  return kind === 'icon' ? realmIconUrl(realm) : realmLogoUrl(realm, kind === 'night_logo');
}
