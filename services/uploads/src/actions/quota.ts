import { errors } from '@chat/contracts';
import type { Tx } from '@chat/db';
import { uploadSpaceUsed } from './attachments';

/**
 * The per-realm upload quota: `realms.custom_upload_quota_gb`, set by the server's
 * administrators, applied as GiB; null (the default) is unlimited. It counts the sizes of all
 * the realm's attachments, whoever uploaded them.
 */
export async function realmUploadQuotaBytes(db: Pick<Tx, 'realm'>, realmId: number): Promise<number | null> {
  const realm = await db.realm.findUniqueOrThrow({ where: { id: realmId }, select: { customUploadQuotaGb: true } });
  return realm.customUploadQuotaGb === null ? null : realm.customUploadQuotaGb * 2 ** 30;
}

/** Refuses an upload of `size` bytes that would take the realm past its quota. */
export async function checkUploadWithinQuota(db: Pick<Tx, 'realm' | 'attachment'>, realmId: number, size: number): Promise<void> {
  const quota = await realmUploadQuotaBytes(db, realmId);
  if (quota === null) return;
  if ((await uploadSpaceUsed(db, realmId)) + size > quota) throw errors.uploadQuotaExceeded();
}

/**
 * The decisive check, inside the transaction that records the attachment: uploads of one realm
 * finishing at the same time take turns here, so two that each fit alone cannot both pass.
 */
export async function checkUploadWithinQuotaLocked(tx: Tx, realmId: number, size: number): Promise<void> {
  if ((await realmUploadQuotaBytes(tx, realmId)) === null) return;
  await tx.$executeRawUnsafe('SELECT pg_advisory_xact_lock($1::int, $2::int)', QUOTA_LOCK_CLASS, realmId);
  await checkUploadWithinQuota(tx, realmId, size);
}

/** First key of the advisory lock pair, naming what the second key (the realm id) locks. */
const QUOTA_LOCK_CLASS = 0x75706c71; // "uplq"

