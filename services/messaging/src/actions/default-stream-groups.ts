/**
 * Default channel groups (/default_stream_groups): named sets of channels offered together to
 * people signing up. Rows of `default_stream_groups`; channels are named by name in requests
 * and reported by id. Every change tells the realm's members with a `default_stream_groups`
 * event carrying the whole list.
 */
import { errors } from '@chat/contracts';
import type { DefaultStreamGroup, Stream, Tx } from '@chat/db';
import { defaultStreamGroupsList, storedDefaultStreamIds } from '@chat/wire';
import type { LoadedActor } from '../lib/caller';
import type { Services } from '../context';
import { recordEvent } from '@chat/bus';
import { checkCanManageDefaults, defaultsAudience, removeDefaultStream } from './default-streams';

export const DEFAULT_STREAM_GROUP_NAME_MAX = 60;
export const DEFAULT_STREAM_GROUP_DESCRIPTION_MAX = 1024;

export function checkGroupName(name: string): void {
  if (name.trim() === '') throw errors.badRequest(`Invalid default channel group name '${name}'`);
  if ([...name].length > DEFAULT_STREAM_GROUP_NAME_MAX) {
    throw errors.badRequest(`Default channel group name too long (limit: ${DEFAULT_STREAM_GROUP_NAME_MAX} characters)`);
  }
  if (name.includes('\0')) throw errors.badRequest(`Default channel group name '${name}' contains NULL (0x00) characters.`);
}

// The reference stores descriptions in a 1024-character column; here the limit is checked.
function checkGroupDescription(description: string): void {
  if ([...description].length > DEFAULT_STREAM_GROUP_DESCRIPTION_MAX) {
    throw errors.badRequest(`Default channel group description too long (limit: ${DEFAULT_STREAM_GROUP_DESCRIPTION_MAX} characters)`);
  }
  if (description.includes('\0')) throw errors.badRequest('Default channel group description contains NULL (0x00) characters.');
}

/**
 * A channel named in a group request, as the reference's access_stream_by_name sees it: public
 * channels, and private ones the administrator is subscribed to; archived ones cannot be offered.
 */
async function accessStreamByName(tx: Tx, actor: LoadedActor, name: string): Promise<Stream> {
  const invalid = () => errors.badRequest(`Invalid channel name '${name}'`);
  const stream = await tx.stream.findFirst({ where: { realmId: actor.realmId, nameKey: name.trim().toLowerCase() } });
  if (!stream || stream.isArchived) throw invalid();
  if (stream.inviteOnly) {
    const sub = await tx.subscription.findUnique({ where: { userId_streamId: { userId: actor.userId, streamId: stream.id } } });
    if (!sub?.active) throw invalid();
  }
  return stream;
}

/** The group, locked for the rest of the transaction so that concurrent edits of it queue. */
async function lockGroup(tx: Tx, realmId: number, groupId: number): Promise<DefaultStreamGroup> {
  const rows = await tx.$queryRaw<Array<{ id: number }>>`SELECT id FROM default_stream_groups WHERE id = ${groupId} AND realm_id = ${realmId} FOR UPDATE`;
  if (!rows.length) throw errors.badRequest(`Default channel group with id '${groupId}' does not exist.`);
  return tx.defaultStreamGroup.findUniqueOrThrow({ where: { id: groupId } });
}

async function announceGroups(tx: Tx, realmId: number): Promise<void> {
  await recordEvent(tx, {
    realmId,
    type: 'default_stream_groups',
    users: await defaultsAudience(tx, realmId),
    event: { type: 'default_stream_groups', default_stream_groups: await defaultStreamGroupsList(tx, realmId) },
  });
}

/** Default channels are offered to everyone already; a group may not offer them again. */
async function checkNotDefault(tx: Tx, realmId: number, streams: Stream[], groupName: string): Promise<void> {
  const realm = await tx.realm.findUniqueOrThrow({ where: { id: realmId }, select: { settings: true } });
  const defaults = new Set(storedDefaultStreamIds(realm.settings));
  for (const s of streams) {
    if (defaults.has(s.id)) throw errors.badRequest(`'${s.name}' is a default channel and cannot be added to '${groupName}'`);
  }
}

const isUniqueViolation = (e: unknown) => (e as { code?: string })?.code === 'P2002';

async function nameTaken(tx: Tx, realmId: number, name: string): Promise<boolean> {
  return (await tx.defaultStreamGroup.count({ where: { realmId, name } })) > 0;
}

/** POST /default_stream_groups/create. */
export async function doCreateDefaultStreamGroup(services: Services, actor: LoadedActor, name: string, description: string, streamNames: string[]): Promise<void> {
  checkCanManageDefaults(actor);
  try {
    await services.db.$transaction(async (tx) => {
      const streams: Stream[] = [];
      for (const n of streamNames) streams.push(await accessStreamByName(tx, actor, n));
      await checkNotDefault(tx, actor.realmId, streams, name);
      checkGroupName(name);
      checkGroupDescription(description);
      if (await nameTaken(tx, actor.realmId, name)) throw errors.badRequest(`Default channel group '${name}' already exists`);
      const streamIds = [...new Set(streams.map((s) => s.id))];
      await tx.defaultStreamGroup.create({ data: { realmId: actor.realmId, name, description, streamIds } });
      await announceGroups(tx, actor.realmId);
    });
  } catch (e) {
    // Two administrators creating the same name at once: the loser gets the ordinary answer.
    if (isUniqueViolation(e)) throw errors.badRequest(`Default channel group '${name}' already exists`);
    throw e;
  }
}

/** PATCH /default_stream_groups/{id}: a new name and/or description. */
export async function doUpdateDefaultStreamGroupInfo(
  services: Services,
  actor: LoadedActor,
  groupId: number,
  newName: string | undefined,
  newDescription: string | undefined,
): Promise<void> {
  checkCanManageDefaults(actor);
  if (!newName && !newDescription) throw errors.badRequest('You must pass "new_description" or "new_group_name".');
  try {
    await services.db.$transaction(async (tx) => {
      const group = await lockGroup(tx, actor.realmId, groupId);
      const data: { name?: string; description?: string } = {};
      if (newName !== undefined) {
        if (group.name === newName) throw errors.badRequest(`This default channel group is already named '${newName}'`);
        if (await nameTaken(tx, actor.realmId, newName)) throw errors.badRequest(`Default channel group '${newName}' already exists`);
        checkGroupName(newName);
        data.name = newName;
      }
      if (newDescription !== undefined) {
        checkGroupDescription(newDescription);
        data.description = newDescription;
      }
      await tx.defaultStreamGroup.update({ where: { id: group.id }, data });
      await announceGroups(tx, actor.realmId);
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw errors.badRequest(`Default channel group '${newName}' already exists`);
    throw e;
  }
}

/** PATCH /default_stream_groups/{id}/streams: op add or remove, channels by name. */
export async function doUpdateDefaultStreamGroupStreams(services: Services, actor: LoadedActor, groupId: number, op: string, streamNames: string[]): Promise<void> {
  checkCanManageDefaults(actor);
  await services.db.$transaction(async (tx) => {
    const group = await lockGroup(tx, actor.realmId, groupId);
    const streams: Stream[] = [];
    for (const n of streamNames) streams.push(await accessStreamByName(tx, actor, n));
    let streamIds: number[];
    if (op === 'add') {
      await checkNotDefault(tx, actor.realmId, streams, group.name);
      streamIds = [...group.streamIds];
      for (const s of streams) {
        if (streamIds.includes(s.id)) {
          throw errors.badRequest(`Channel '${s.name}' is already present in default channel group '${group.name}'`);
        }
        streamIds.push(s.id);
      }
    } else if (op === 'remove') {
      for (const s of streams) {
        if (!group.streamIds.includes(s.id)) {
          throw errors.badRequest(`Channel '${s.name}' is not present in default channel group '${group.name}'`);
        }
      }
      const gone = new Set(streams.map((s) => s.id));
      streamIds = group.streamIds.filter((id) => !gone.has(id));
    } else {
      throw errors.badRequest('Invalid value for "op". Specify one of "add" or "remove".');
    }
    await tx.defaultStreamGroup.update({ where: { id: group.id }, data: { streamIds } });
    await announceGroups(tx, actor.realmId);
  });
}

/** DELETE /default_stream_groups/{id}. */
export async function doRemoveDefaultStreamGroup(services: Services, actor: LoadedActor, groupId: number): Promise<void> {
  checkCanManageDefaults(actor);
  await services.db.$transaction(async (tx) => {
    const group = await lockGroup(tx, actor.realmId, groupId);
    await tx.defaultStreamGroup.delete({ where: { id: group.id } });
    await announceGroups(tx, actor.realmId);
  });
}

/**
 * An archived channel leaves the defaults and every group (as the reference's
 * do_deactivate_stream does), with one event for each list that changed.
 */
export async function dropArchivedStreamFromDefaults(tx: Tx, realmId: number, streamId: number): Promise<void> {
  const rows = await tx.$queryRaw<Array<{ settings: unknown }>>`SELECT settings FROM realms WHERE id = ${realmId} FOR UPDATE`;
  if (storedDefaultStreamIds(rows[0]?.settings).includes(streamId)) await removeDefaultStream(tx, realmId, streamId);
  const groups = await tx.$queryRaw<Array<{ id: number }>>`SELECT id FROM default_stream_groups WHERE realm_id = ${realmId} AND ${streamId} = ANY(stream_ids) FOR UPDATE`;
  if (!groups.length) return;
  for (const g of groups) {
    const row = await tx.defaultStreamGroup.findUniqueOrThrow({ where: { id: g.id } });
    await tx.defaultStreamGroup.update({ where: { id: g.id }, data: { streamIds: row.streamIds.filter((id) => id !== streamId) } });
  }
  await announceGroups(tx, realmId);
}
