/**
 * Default channels: the channels new users join (POST/DELETE /default_streams, PATCH
 * /streams/{id} is_default_stream). They stay where sign-up reads them, the realm's
 * `default_stream_ids` setting; every change rewrites only that key, under a lock on the realm
 * row, and tells the realm's members with a `default_streams` event.
 */
import { errors, ROLE, isAdmin } from '@chat/contracts';
import type { Stream, Tx } from '@chat/db';
import { defaultStreamIdsList, storedDefaultStreamIds } from '@chat/wire';
import type { LoadedActor } from '../lib/caller';
import type { Services } from '../context';
import { recordEvent } from '@chat/bus';

/** Default channels and their groups are managed by administrators (the reference's can_manage_default_streams). */
export function checkCanManageDefaults(actor: LoadedActor): void {
  if (!isAdmin(actor)) throw errors.mustBeAdmin();
}

/** Who hears about default channels and groups: active members of the realm except guests, bots included. */
export async function defaultsAudience(tx: Tx, realmId: number): Promise<number[]> {
  const rows = await tx.user.findMany({
    where: { realmId, isActive: true, role: { not: ROLE.GUEST } },
    select: { id: true },
    orderBy: { id: 'asc' },
  });
  return rows.map((r) => r.id);
}

/** The stored list, read with the realm row locked so that concurrent edits queue. */
async function lockDefaultStreamIds(tx: Tx, realmId: number): Promise<number[]> {
  const rows = await tx.$queryRaw<Array<{ settings: unknown }>>`SELECT settings FROM realms WHERE id = ${realmId} FOR UPDATE`;
  return storedDefaultStreamIds(rows[0]?.settings);
}

/** Rewrites only `default_stream_ids`: other settings the users service changes meanwhile are kept. */
async function writeDefaultStreamIds(tx: Tx, realmId: number, ids: number[]): Promise<void> {
  const value = JSON.stringify(ids);
  await tx.$executeRaw`UPDATE realms SET settings = jsonb_set(COALESCE(settings, '{}'::jsonb), '{default_stream_ids}', ${value}::jsonb) WHERE id = ${realmId}`;
}

async function announceDefaultStreams(tx: Tx, realmId: number): Promise<void> {
  const realm = await tx.realm.findUniqueOrThrow({ where: { id: realmId }, select: { settings: true } });
  await recordEvent(tx, {
    realmId,
    type: 'default_streams',
    users: await defaultsAudience(tx, realmId),
    event: { type: 'default_streams', default_streams: await defaultStreamIdsList(tx, realmId, realm.settings) },
  });
}

export async function isDefaultStream(tx: Tx, realmId: number, streamId: number): Promise<boolean> {
  const realm = await tx.realm.findUniqueOrThrow({ where: { id: realmId }, select: { settings: true } });
  return storedDefaultStreamIds(realm.settings).includes(streamId);
}

/** Adds a channel to the defaults; one already there is left alone, with no event (as in the reference). */
export async function addDefaultStream(tx: Tx, stream: Stream): Promise<void> {
  const ids = await lockDefaultStreamIds(tx, stream.realmId);
  if (ids.includes(stream.id)) return;
  await writeDefaultStreamIds(tx, stream.realmId, [...ids, stream.id]);
  await announceDefaultStreams(tx, stream.realmId);
}

/** Takes a channel out of the defaults; the event goes out even when it was not one. */
export async function removeDefaultStream(tx: Tx, realmId: number, streamId: number): Promise<void> {
  const ids = await lockDefaultStreamIds(tx, realmId);
  await writeDefaultStreamIds(tx, realmId, ids.filter((id) => id !== streamId));
  await announceDefaultStreams(tx, realmId);
}

/**
 * The channel a default-channel request names, as the reference's access_stream_by_id sees it:
 * an administrator reaches a private channel's content only as a subscriber, so an unsubscribed
 * one is "Invalid channel ID" (removal needs no content access, only existence).
 */
async function accessForDefaults(tx: Tx, actor: LoadedActor, streamId: number, needContent: boolean): Promise<Stream> {
  const stream = await tx.stream.findFirst({ where: { id: streamId, realmId: actor.realmId } });
  if (!stream) throw errors.invalidStreamId();
  if (needContent && stream.inviteOnly) {
    const sub = await tx.subscription.findUnique({ where: { userId_streamId: { userId: actor.userId, streamId } } });
    if (!sub?.active) throw errors.invalidStreamId();
  }
  return stream;
}

/** POST /default_streams. */
export async function doAddDefaultStream(services: Services, actor: LoadedActor, streamId: number): Promise<void> {
  checkCanManageDefaults(actor);
  await services.db.$transaction(async (tx) => {
    const stream = await accessForDefaults(tx, actor, streamId, true);
    if (stream.inviteOnly) throw errors.badRequest('Private channels cannot be made default.');
    // New users cannot join an archived channel; it would only sit unseen in the list.
    if (stream.isArchived) throw errors.invalidStreamId();
    await addDefaultStream(tx, stream);
  });
}

/** DELETE /default_streams. */
export async function doRemoveDefaultStream(services: Services, actor: LoadedActor, streamId: number): Promise<void> {
  checkCanManageDefaults(actor);
  await services.db.$transaction(async (tx) => {
    const stream = await accessForDefaults(tx, actor, streamId, false);
    await removeDefaultStream(tx, actor.realmId, stream.id);
  });
}
