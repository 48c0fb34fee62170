import sharp from 'sharp';
import { recordEvent } from '@chat/bus';
import { errors, ROLE, type Identity } from '@chat/contracts';
import { realmIconSource, realmIconUrl } from '@chat/wire';
import type { Services } from '../context';

const ICON_SIZE = 100;
const MAX_PIXELS = 50_000_000;

export const realmIconKey = (realmId: number) => `avatars/${realmId}/realm/icon.png`;

function versionOf(url: string | null): number {
  const m = url ? /[?&]version=(\d+)/.exec(url) : null;
  return m ? Number(m[1]) : 0;
}

function requireAdmin(identity: Identity): void {
  if (identity.role === undefined || identity.role > ROLE.ADMINISTRATOR) throw errors.mustBeAdmin();
}

async function announceIcon(s: Services, realmId: number, iconUrl: string | null, stringId: string) {
  return s.db.$transaction(async (tx) => {
    await tx.realm.update({ where: { id: realmId }, data: { iconUrl } });
    const url = realmIconUrl({ stringId, iconUrl });
    await recordEvent(tx, {
      realmId,
      type: 'realm',
      users: 'realm',
      event: { type: 'realm', op: 'update_dict', property: 'icon', data: { icon_url: url, icon_source: realmIconSource({ iconUrl }) } },
    });
    return { icon_url: url };
  });
}

/** Stores a new square icon for the realm (administrators only) and tells everyone. */
export async function checkSetRealmIcon(s: Services, identity: Identity, image: Buffer) {
  requireAdmin(identity);
  let icon: Buffer;
  try {
    icon = await sharp(image, { limitInputPixels: MAX_PIXELS }).rotate().resize(ICON_SIZE, ICON_SIZE, { fit: 'cover' }).png().toBuffer();
  } catch {
    throw errors.badImage();
  }
  const realm = await s.db.realm.findUniqueOrThrow({ where: { id: identity.realmId } });
  await s.storage.write(realmIconKey(realm.id), icon, 'image/png');
  await s.storage.write(`avatars/${realm.id}/realm/icon.original`, image, 'application/octet-stream');
  // The version in the URL changes with every upload, so cached copies are not shown.
  const url = `/user_${realmIconKey(realm.id)}?version=${versionOf(realm.iconUrl) + 1}`;
  return announceIcon(s, realm.id, url, realm.stringId);
}

/** Back to the default identicon. */
export async function checkDeleteRealmIcon(s: Services, identity: Identity) {
  requireAdmin(identity);
  const realm = await s.db.realm.findUniqueOrThrow({ where: { id: identity.realmId } });
  const result = await announceIcon(s, realm.id, null, realm.stringId);
  await s.storage.remove(realmIconKey(realm.id)).catch(() => undefined);
  await s.storage.remove(`avatars/${realm.id}/realm/icon.original`).catch(() => undefined);
  return result;
}
