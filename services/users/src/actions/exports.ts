import { recordEvent } from '@chat/bus';
import { errors, ROLE, checkAdmin, type Actor } from '@chat/contracts';
import type { Db, Tx } from '@chat/db';
import { EXPORT_STATUS, EXPORT_TYPE, realmExportObject } from '@chat/wire';
import type { Services } from '../context';
import { exportableMessageWhere, writeRealmExport } from '../workers/exports/writer';

/** Exports a realm may request in any seven days, as on the family's server. */
export const EXPORT_LIMIT = 5;
const WEEK_MS = 7 * 86_400_000;
const EMAIL_VISIBILITY_NOBODY = 4;

type Reader = Db | Tx;

/** Active human administrators and owners: who hears about exports and consent changes. */
async function humanAdminIds(db: Reader, realmId: number): Promise<number[]> {
  const rows = await db.user.findMany({
    where: { realmId, isActive: true, isBot: false, role: { lte: ROLE.ADMINISTRATOR } },
    select: { id: true },
    orderBy: { id: 'asc' },
  });
  return rows.map((r) => r.id);
}

export async function listExports(db: Reader, realmId: number, realmUrl: string) {
  const rows = await db.realmExport.findMany({ where: { realmId }, orderBy: { id: 'asc' } });
  return rows.map((e) => realmExportObject(e, realmUrl));
}

/** Every change of an export sends the administrators the whole list. */
async function announceExports(tx: Tx, realmId: number, realmUrl: string) {
  await recordEvent(tx, {
    realmId,
    type: 'realm_export',
    users: await humanAdminIds(tx, realmId),
    event: { type: 'realm_export', exports: await listExports(tx, realmId, realmUrl) },
  });
}

function supportEmail(services: Services, realmUrl: string): string {
  return services.config.EXPORT_SUPPORT_EMAIL || `support@${new URL(realmUrl).hostname}`;
}

/** Whether an export of this type would be usable, as the family's server decides it. */
async function checkExportUsable(services: Services, realmId: number, exportType: number, realmUrl: string) {
  const owners = await services.db.user.findMany({ where: { realmId, isActive: true, isBot: false, role: ROLE.OWNER }, select: { id: true, settings: true } });
  const setting = (u: { settings: unknown }, name: string) => (u.settings as Record<string, unknown>)[name];
  const email = supportEmail(services, realmUrl);
  if (exportType === EXPORT_TYPE.FULL_WITH_CONSENT && !owners.some((o) => setting(o, 'allow_private_data_export') === true)) {
    throw errors.badRequest(`Make sure at least one Organization Owner is consenting to the export or contact ${email} for help.`);
  }
  // Someone must be able to log in to the imported organization: an owner whose address is exported.
  if (exportType === EXPORT_TYPE.PUBLIC && !owners.some((o) => (setting(o, 'email_address_visibility') ?? 1) !== EMAIL_VISIBILITY_NOBODY)) {
    throw errors.badRequest(`Make sure at least one Organization Owner allows other Administrators to see their email address or contact ${email} for help`);
  }
}

/** Large organizations are exported by the server's administrators, not through the API. */
async function checkExportSize(services: Services, realmId: number, exportType: number, realmUrl: string) {
  const messages = await services.db.message.count({ where: await exportableMessageWhere(services.db, realmId, exportType) });
  const uploads = await services.db.attachment.aggregate({ where: { realmId }, _sum: { size: true } });
  if (messages > services.config.EXPORT_MAX_MESSAGES || Number(uploads._sum.size ?? 0n) > services.config.EXPORT_MAX_UPLOAD_BYTES) {
    throw errors.badRequest(`Please request a manual export from ${supportEmail(services, realmUrl)}.`);
  }
}

export function checkExportType(exportType: number | undefined): number {
  const type = exportType ?? EXPORT_TYPE.PUBLIC;
  if (type !== EXPORT_TYPE.PUBLIC && type !== EXPORT_TYPE.FULL_WITH_CONSENT) throw errors.invalidArgument('export_type');
  return type;
}

/** POST /export/realm: records the export, tells the administrators, and queues the job. */
export async function doRequestExport(services: Services, actor: Actor, exportType: () => number | undefined): Promise<number> {
  checkAdmin(actor);
  const type = checkExportType(exportType());
  const id = await services.db.$transaction(async (tx) => {
    // One request at a time per realm, so concurrent requests cannot pass the weekly limit.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('realm_export'), ${actor.realmId})`;
    const recent = await tx.realmExport.count({ where: { realmId: actor.realmId, dateRequested: { gte: new Date(Date.now() - WEEK_MS) } } });
    if (recent >= EXPORT_LIMIT) throw errors.badRequest('Exceeded rate limit.');
    await checkExportSize(services, actor.realmId, type, actor.realmUrl);
    await checkExportUsable(services, actor.realmId, type, actor.realmUrl);
    const row = await tx.realmExport.create({ data: { realmId: actor.realmId, actingUserId: actor.userId, exportType: type } });
    await announceExports(tx, actor.realmId, actor.realmUrl);
    return row.id;
  });
  try {
    await services.exports.add({ exportId: id, realmUrl: actor.realmUrl });
  } catch (err) {
    // Never queued, it would stay pending for good: it failed.
    await markExport(services, id, actor.realmUrl, [EXPORT_STATUS.REQUESTED], { status: EXPORT_STATUS.FAILED, dateFailed: new Date() });
    throw err;
  }
  return id;
}

export async function accessExports(services: Services, actor: Actor) {
  checkAdmin(actor);
  return listExports(services.db, actor.realmId, actor.realmUrl);
}

/** DELETE /export/realm/{id}: only a finished export can be deleted; its tarball goes too. */
export async function doDeleteExport(services: Services, actor: Actor, exportId: number): Promise<void> {
  checkAdmin(actor);
  const path = await services.db.$transaction(async (tx) => {
    // Ids are 32-bit: a larger one names nothing (and the database would refuse to compare it).
    const [row] = exportId > 2 ** 31 - 1 ? [] : await tx.$queryRaw<Array<{ id: number }>>`
      SELECT id FROM realm_exports WHERE id = ${exportId} AND realm_id = ${actor.realmId} FOR UPDATE`;
    if (!row) throw errors.badRequest('Invalid data export ID');
    const exp = await tx.realmExport.findUniqueOrThrow({ where: { id: row.id } });
    if (exp.status === EXPORT_STATUS.DELETED) throw errors.badRequest('Export already deleted');
    if (exp.status === EXPORT_STATUS.FAILED) throw errors.badRequest('Export failed, nothing to delete');
    if (exp.status !== EXPORT_STATUS.SUCCEEDED) throw errors.badRequest('Export still in progress');
    await tx.realmExport.update({ where: { id: exp.id }, data: { status: EXPORT_STATUS.DELETED, dateDeleted: new Date() } });
    await announceExports(tx, actor.realmId, actor.realmUrl);
    return exp.exportPath;
  });
  if (path) await services.exportStore.remove(path);
}

/** GET /export/realm/consents: every active person's allow_private_data_export. */
export async function accessExportConsents(services: Services, actor: Actor) {
  checkAdmin(actor);
  const users = await services.db.user.findMany({
    where: { realmId: actor.realmId, isActive: true, isBot: false },
    select: { id: true, settings: true },
    orderBy: { id: 'asc' },
  });
  return users.map((u) => ({ user_id: u.id, consented: exportConsent(u.settings) }));
}

/** A person's allow_private_data_export (off unless they turned it on). */
export function exportConsent(settings: unknown): boolean {
  return (settings as Record<string, unknown>).allow_private_data_export === true;
}

/**
 * Tells the administrators a person's consent: when they change it, and when they join or
 * come back (the user events do not carry it).
 */
export async function announceExportConsent(tx: Tx, realmId: number, userId: number, consented: boolean) {
  await recordEvent(tx, {
    realmId,
    type: 'realm_export_consent',
    users: await humanAdminIds(tx, realmId),
    event: { type: 'realm_export_consent', user_id: userId, consented },
  });
}

/** Moves an export to `status`, with its event, unless it left the expected state meanwhile. */
async function markExport(services: Services, exportId: number, realmUrl: string, from: number[], data: Parameters<Tx['realmExport']['update']>[0]['data']) {
  return services.db.$transaction(async (tx) => {
    const moved = await tx.realmExport.updateMany({ where: { id: exportId, status: { in: from } }, data });
    if (!moved.count) return null;
    const row = await tx.realmExport.findUniqueOrThrow({ where: { id: exportId } });
    await announceExports(tx, row.realmId, realmUrl);
    return row;
  });
}

/** The export job: started, written, then succeeded, or failed with whatever was written removed. */
export async function doRunExport(services: Services, job: { exportId: number; realmUrl: string }): Promise<void> {
  // Started already: a replica stopped while writing it, and BullMQ handed the job on; start over.
  const started = await markExport(services, job.exportId, job.realmUrl, [EXPORT_STATUS.REQUESTED, EXPORT_STATUS.STARTED], { status: EXPORT_STATUS.STARTED });
  if (!started) return;
  let written: { path: string; size: number } | undefined;
  try {
    written = await writeRealmExport(services.db, services.exportStore, started.realmId, started.exportType);
    const done = await markExport(services, job.exportId, job.realmUrl, [EXPORT_STATUS.STARTED], {
      status: EXPORT_STATUS.SUCCEEDED, dateSucceeded: new Date(), exportPath: written.path, tarballSize: written.size,
    });
    if (!done) throw new Error('export changed while it was written');
  } catch (err) {
    services.log.warn({ err, exportId: job.exportId }, 'realm export failed');
    if (written) await services.exportStore.remove(written.path).catch((e) => services.log.warn({ err: e }, 'export tarball not removed'));
    await markExport(services, job.exportId, job.realmUrl, [EXPORT_STATUS.REQUESTED, EXPORT_STATUS.STARTED], { status: EXPORT_STATUS.FAILED, dateFailed: new Date() });
    throw err;
  }
}

/** The tarball of a finished export of this realm, by the path its URL names; null otherwise. */
export async function accessExportFile(services: Services, realmId: number, relative: string): Promise<string | null> {
  const row = await services.db.realmExport.findFirst({ where: { realmId, exportPath: relative, status: EXPORT_STATUS.SUCCEEDED } });
  return row?.exportPath ?? null;
}

