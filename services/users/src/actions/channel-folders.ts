import { recordEvent } from '@chat/bus';
import { errors, LIMITS, checkAdmin, type Actor } from '@chat/contracts';
import type { Tx } from '@chat/db';
import { channelFolderObject } from '@chat/wire';
import type { Services } from '../context';
import { activeUserIds } from '../lib/audience';
import { renderMarkdown } from '../lib/render';

function checkLength(name: string, value: string, max: number) {
  if ([...value].length > max) throw errors.badRequest(`${name} is too long (limit: ${max} characters)`);
}

async function checkName(tx: Tx, realmId: number, name: string) {
  if (name.trim() === '') throw errors.badRequest("Channel folder name can't be empty.");
  // eslint-disable-next-line no-control-regex
  const bad = [...name].findIndex((c) => /[\u0000-\u001f\u007f-\u009f]/.test(c));
  if (bad >= 0) throw errors.badRequest(`Invalid character in channel folder name, at position ${bad + 1}.`);
  if (await tx.channelFolder.findFirst({ where: { realmId, name: { equals: name, mode: 'insensitive' } } })) {
    throw errors.badRequest(`Channel folder '${name}' already exists`);
  }
}

async function announce(tx: Tx, realmId: number, event: Record<string, unknown>) {
  await recordEvent(tx, { realmId, type: 'channel_folder', users: await activeUserIds(tx, realmId), event: { type: 'channel_folder', ...event } });
}

export async function listFolders(services: Services, realmId: number, includeArchived: boolean) {
  const folders = await services.db.channelFolder.findMany({
    where: { realmId, ...(includeArchived ? {} : { isArchived: false }) },
    orderBy: { id: 'asc' },
  });
  return folders.map(channelFolderObject);
}

export async function doCreateFolder(
  services: Services,
  actor: Actor,
  read: () => { name: string; description: string },
): Promise<number> {
  checkAdmin(actor);
  const { name, description } = read();
  checkLength('description', description, LIMITS.maxChannelFolderDescriptionLength);
  checkLength('name', name, LIMITS.maxChannelFolderNameLength);
  return services.db.$transaction(async (tx) => {
    await checkName(tx, actor.realmId, name);
    const last = await tx.channelFolder.aggregate({ where: { realmId: actor.realmId }, _max: { order: true } });
    const folder = await tx.channelFolder.create({
      data: {
        realmId: actor.realmId,
        name,
        description,
        renderedDescription: renderMarkdown(description),
        order: (last._max.order ?? 0) + 1,
        creatorId: actor.userId,
      },
    });
    await announce(tx, actor.realmId, { op: 'add', channel_folder: channelFolderObject(folder) });
    return folder.id;
  });
}

export async function doUpdateFolder(
  services: Services,
  actor: Actor,
  folderId: number,
  change: { name?: string; description?: string; isArchived?: boolean },
): Promise<void> {
  checkAdmin(actor);
  if (change.description !== undefined) checkLength('description', change.description, LIMITS.maxChannelFolderDescriptionLength);
  if (change.name !== undefined) checkLength('name', change.name, LIMITS.maxChannelFolderNameLength);
  await services.db.$transaction(async (tx) => {
    const folder = await tx.channelFolder.findFirst({ where: { id: folderId, realmId: actor.realmId } });
    if (!folder) throw errors.badRequest('Invalid channel folder ID');
    const update = async (data: Record<string, unknown>, wire: Record<string, unknown>) => {
      await tx.channelFolder.update({ where: { id: folder.id }, data });
      await announce(tx, actor.realmId, { op: 'update', channel_folder_id: folder.id, data: wire });
    };
    if (change.name !== undefined && change.name !== folder.name) {
      await checkName(tx, actor.realmId, change.name);
      await update({ name: change.name }, { name: change.name });
    }
    if (change.description !== undefined && change.description !== folder.description) {
      const rendered = renderMarkdown(change.description);
      await update({ description: change.description, renderedDescription: rendered }, { description: change.description, rendered_description: rendered });
    }
    if (change.isArchived !== undefined && change.isArchived !== folder.isArchived) {
      if (change.isArchived) {
        const inUse = await tx.stream.count({ where: { realmId: actor.realmId, folderId: folder.id, isArchived: false } });
        if (inUse) throw errors.badRequest('You need to remove all the channels from this folder to archive it.');
      }
      await update({ isArchived: change.isArchived }, { is_archived: change.isArchived });
    }
  });
}

export async function doReorderFolders(services: Services, actor: Actor, order: number[]): Promise<void> {
  checkAdmin(actor);
  await services.db.$transaction(async (tx) => {
    const folders = await tx.channelFolder.findMany({ where: { realmId: actor.realmId }, select: { id: true } });
    const ids = new Set(folders.map((f) => f.id));
    if (order.length !== ids.size || new Set(order).size !== order.length) {
      throw errors.badRequest('The order list must contain every channel folder exactly once.');
    }
    for (const id of order) if (!ids.has(id)) throw errors.badRequest(`Invalid channel folder ID: ${id}`);
    for (const [i, id] of order.entries()) await tx.channelFolder.update({ where: { id }, data: { order: i + 1 } });
    await announce(tx, actor.realmId, { op: 'reorder', order });
  });
}
