import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Db } from '@chat/db';

/**
 * Names the relay knows our organizations and people by. The relay keys everything by UUID
 * (`realm_uuid`, `user_uuid`), never by our integer ids, which another server may use too.
 */

/**
 * Gives every organization that has none its relay identity: a random UUID v4 and the secret
 * that proves it is ours (the relay's `uuid_owner_secret`). Identities are never changed: the
 * relay would take a new UUID for a new organization.
 */
export async function ensureRealmIdentities(db: Db, realmIds?: number[]): Promise<void> {
  const realms = await db.realm.findMany({ where: realmIds ? { id: { in: realmIds } } : {}, select: { id: true } });
  if (!realms.length) return;
  const known = await db.pushRelayRealm.findMany({ where: { realmId: { in: realms.map((r) => r.id) } }, select: { realmId: true } });
  const have = new Set(known.map((k) => k.realmId));
  const missing = realms.filter((r) => !have.has(r.id));
  if (!missing.length) return;
  // skipDuplicates: two replicas may create the same organization's identity at once; the first wins.
  await db.pushRelayRealm.createMany({
    data: missing.map((r) => ({ realmId: r.id, uuid: randomUUID(), uuidOwnerSecret: `zuliprealm_${randomBytes(24).toString('base64url')}` })),
    skipDuplicates: true,
  });
}

/** The organization's `realm_uuid`, created on first use. */
export async function realmUuid(db: Db, realmId: number): Promise<string> {
  let row = await db.pushRelayRealm.findUnique({ where: { realmId }, select: { uuid: true } });
  if (!row) {
    await ensureRealmIdentities(db, [realmId]);
    row = await db.pushRelayRealm.findUniqueOrThrow({ where: { realmId }, select: { uuid: true } });
  }
  return row.uuid;
}

/**
 * A person's `user_uuid`: derived from the organization's UUID and the user id, so it needs no
 * column of its own, never changes, and differs between organizations and servers. Shaped as a
 * UUID v4 (version and variant bits set), which is what the relay stores it as.
 */
export function userUuid(realmUuidValue: string, userId: number): string {
  const b = createHash('sha256').update(`${realmUuidValue}:user:${userId}`).digest().subarray(0, 16);
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
