/** Changing and archiving channels (PATCH and DELETE /streams/{id}). */
import type { Stream, Tx } from '@chat/db';
import { checkOwner, errors, isAdmin, LIMITS } from '@chat/contracts';
import type { LoadedActor } from '../lib/caller';
import type { Services } from '../context';
import {
  checkGroupSettingValue,
  hasRealmPermission,
  isGroupSettingValue,
  normalizeGroupSettingValue,
  sameGroupSettingValue,
  type GroupSettingChange,
} from '@chat/realm';
import { STREAM_GROUP_SETTINGS, STREAM_GROUP_SETTING_NAMES, type StreamGroupSettingName } from '@chat/wire';
import { recordEvent } from '@chat/bus';
import { emptyRenderContext, renderMarkdown } from '../markdown';
import { streamDict, streamViewerIds } from './stream-dicts';
import { checkStreamName } from './streams';
import { addDefaultStream, isDefaultStream, removeDefaultStream } from './default-streams';
import { dropArchivedStreamFromDefaults } from './default-stream-groups';
import { accessStreamForAdministration, channelSettingValue, DELETE_POLICY_SETTINGS, hasContentAccess, mayChangeDeletePolicy } from './channel-permissions';

export const TOPICS_POLICIES = ['inherit', 'allow_empty_topic', 'disable_empty_topic', 'empty_topic_only'];
/** Settings that hand out access to a private channel's content: changing them needs that access. */
const NEEDS_CONTENT_ACCESS: readonly StreamGroupSettingName[] = ['can_add_subscribers_group', 'can_subscribe_group'];

export interface StreamChanges {
  description?: string;
  newName?: string;
  isPrivate?: boolean;
  isWebPublic?: boolean;
  historyPublicToSubscribers?: boolean;
  topicsPolicy?: string;
  messageRetentionDays?: number | null;
  folderId?: number | null;
  isArchived?: boolean;
  isDefaultStream?: boolean;
  groups?: Partial<Record<StreamGroupSettingName, GroupSettingChange>>;
}

async function emit(tx: Tx, actor: LoadedActor, stream: Stream, users: number[], property: string, value: unknown, extra: Record<string, unknown> = {}) {
  await recordEvent(tx, {
    realmId: actor.realmId,
    type: 'stream',
    users,
    event: { type: 'stream', op: 'update', stream_id: stream.id, name: stream.name, property, value, ...extra },
  });
}

export async function doUpdateStream(services: Services, actor: LoadedActor, streamId: number, c: StreamChanges): Promise<void> {
  await services.db.$transaction(async (tx) => {
    const access = await accessStreamForAdministration(tx, actor, streamId);
    let stream = access.stream;
    // Default channels are the organization's choice, not a channel administrator's.
    if (c.isDefaultStream !== undefined && !isAdmin(actor)) throw errors.mustBeAdmin();
    if (c.isPrivate !== undefined || c.isDefaultStream !== undefined) {
      // New users join default channels, so a default channel is never private.
      const proposedPrivate = c.isPrivate ?? stream.inviteOnly;
      const proposedDefault = c.isDefaultStream ?? (await isDefaultStream(tx, actor.realmId, stream.id));
      if (proposedPrivate && proposedDefault) throw errors.badRequest('A default channel cannot be private.');
    }
    const viewersBefore = await streamViewerIds(tx, stream, []);
    if (c.description !== undefined) {
      const description = c.description.replace(/\n/g, ' ');
      if ([...description].length > LIMITS.maxStreamDescriptionLength) {
        throw errors.badRequest(`Channel description too long (limit: ${LIMITS.maxStreamDescriptionLength} characters).`);
      }
      const rendered = description ? renderMarkdown(description, emptyRenderContext(actor.realmUrl)).html : '';
      stream = await tx.stream.update({ where: { id: stream.id }, data: { description, renderedDescription: rendered } });
      await emit(tx, actor, stream, viewersBefore, 'description', description, { rendered_description: rendered });
    }
    if (c.newName !== undefined) {
      const name = checkStreamName(c.newName);
      const clash = await tx.stream.findFirst({ where: { realmId: actor.realmId, nameKey: name.toLowerCase(), id: { not: stream.id } } });
      if (clash) throw errors.badRequest(`Channel '${name}' already exists`);
      const old = stream;
      stream = await tx.stream.update({ where: { id: stream.id }, data: { name, nameKey: name.toLowerCase() } });
      await emit(tx, actor, old, viewersBefore, 'name', name);
    }
    if (c.topicsPolicy !== undefined) {
      if (!TOPICS_POLICIES.includes(c.topicsPolicy)) throw errors.badRequest('Invalid topics_policy');
      if (!isAdmin(actor) && !(await hasRealmPermission(tx, actor.realmId, 'can_set_topics_policy_group', actor.userId))) {
        throw errors.insufficientPermission();
      }
      if (c.topicsPolicy === 'empty_topic_only' && (await tx.message.count({ where: { streamId: stream.id, topic: { not: '' } } })) > 0) {
        throw errors.badRequest(
          'To enable this configuration, all messages in this channel must be in the general chat topic. Consider renaming or deleting other topics.',
        );
      }
      stream = await tx.stream.update({ where: { id: stream.id }, data: { topicsPolicy: c.topicsPolicy } });
      await emit(tx, actor, stream, viewersBefore, 'topics_policy', c.topicsPolicy);
    }
    if (c.messageRetentionDays !== undefined) {
      checkOwner(actor);
      stream = await tx.stream.update({ where: { id: stream.id }, data: { messageRetentionDays: c.messageRetentionDays } });
      await emit(tx, actor, stream, viewersBefore, 'message_retention_days', c.messageRetentionDays);
    }
    if (c.folderId !== undefined) {
      stream = await tx.stream.update({ where: { id: stream.id }, data: { folderId: c.folderId } });
      await emit(tx, actor, stream, viewersBefore, 'folder_id', c.folderId);
    }
    for (const name of STREAM_GROUP_SETTING_NAMES) {
      const change = c.groups?.[name];
      if (change) stream = await changeGroupSetting(tx, actor, stream, name, change, access.subscribed, viewersBefore);
    }
    if (c.isPrivate !== undefined || c.historyPublicToSubscribers !== undefined || c.isWebPublic !== undefined) {
      if (c.isPrivate !== undefined) await checkCanChangePrivacy(tx, actor, stream, c.isPrivate, access.subscribed);
      stream = await changePrivacy(tx, actor, stream, c, viewersBefore);
    }
    if (c.isArchived === false && stream.isArchived) {
      stream = await tx.stream.update({ where: { id: stream.id }, data: { isArchived: false } });
      await emit(tx, actor, stream, await streamViewerIds(tx, stream, []), 'is_archived', false);
    }
    if (c.isDefaultStream === true) {
      if (stream.isArchived) throw errors.invalidStreamId();
      await addDefaultStream(tx, stream);
    } else if (c.isDefaultStream === false) {
      await removeDefaultStream(tx, actor.realmId, stream.id);
    }
  });
}

/**
 * Who may make a channel private or public, beyond administering it: someone who may read it
 * (organization administrators included) and who may create channels of the new kind.
 */
async function checkCanChangePrivacy(tx: Tx, actor: LoadedActor, stream: Stream, isPrivate: boolean, subscribed: boolean): Promise<void> {
  if (!(await hasContentAccess(tx, actor, stream, subscribed))) throw errors.badRequest('Channel content access is required.');
  const key = isPrivate ? 'can_create_private_channel_group' : 'can_create_public_channel_group';
  if (!(await hasRealmPermission(tx, actor.realmId, key, actor.userId))) throw errors.insufficientPermission();
}

/**
 * One group setting, as the family's update_stream_backend changes it: `old`, when sent, must
 * be the current value; a change to the value it already has does nothing (no event); settings
 * handing out content access need that access, the message-delete ones the realm's
 * can_set_delete_message_policy_group (organization administrators always may).
 */
async function changeGroupSetting(
  tx: Tx,
  actor: LoadedActor,
  stream: Stream,
  name: StreamGroupSettingName,
  change: GroupSettingChange,
  subscribed: boolean,
  audience: number[],
): Promise<Stream> {
  const current = await normalizeGroupSettingValue(tx, actor.realmId, await channelSettingValue(tx, stream, name));
  if (change.old !== undefined) {
    if (!isGroupSettingValue(change.old)) throw errors.badRequest(`Invalid ${name}`);
    const expected = await normalizeGroupSettingValue(tx, actor.realmId, change.old);
    if (!sameGroupSettingValue(expected, current)) throw errors.badRequest("'old' value does not match the expected value.");
  }
  if (!isGroupSettingValue(change.new)) throw errors.badRequest(`Invalid ${name}`);
  if (sameGroupSettingValue(await normalizeGroupSettingValue(tx, actor.realmId, change.new), current)) return stream;
  if (NEEDS_CONTENT_ACCESS.includes(name) && !(await hasContentAccess(tx, actor, stream, subscribed))) {
    throw errors.badRequest('Channel content access is required.');
  }
  if (DELETE_POLICY_SETTINGS.includes(name) && !(await mayChangeDeletePolicy(tx, actor))) throw errors.insufficientPermission();
  const value = await checkGroupSettingValue(tx, actor.realmId, name, change.new, STREAM_GROUP_SETTINGS[name]);
  const updated = await tx.stream.update({ where: { id: stream.id }, data: { [STREAM_GROUP_SETTINGS[name].field]: value } });
  await emit(tx, actor, updated, audience, name, value);
  return updated;
}

async function changePrivacy(tx: Tx, actor: LoadedActor, stream: Stream, c: StreamChanges, viewersBefore: number[]): Promise<Stream> {
  const inviteOnly = c.isPrivate ?? stream.inviteOnly;
  const isWebPublic = inviteOnly ? false : (c.isWebPublic ?? stream.isWebPublic);
  // A public channel's history is always readable; a private one keeps or takes the new value.
  const history = inviteOnly ? (c.historyPublicToSubscribers ?? (c.isPrivate === true && !stream.inviteOnly ? true : stream.historyPublicToSubscribers)) : true;
  if (isWebPublic && !stream.isWebPublic && !(await hasRealmPermission(tx, actor.realmId, 'can_create_web_public_channel_group', actor.userId))) {
    throw errors.insufficientPermission();
  }
  const updated = await tx.stream.update({
    where: { id: stream.id },
    data: { inviteOnly, isWebPublic, historyPublicToSubscribers: history },
  });
  const viewersAfter = await streamViewerIds(tx, updated, []);
  const gained = viewersAfter.filter((id) => !viewersBefore.includes(id));
  const lost = viewersBefore.filter((id) => !viewersAfter.includes(id));
  if (gained.length) {
    await recordEvent(tx, { realmId: actor.realmId, type: 'stream', users: gained, event: { type: 'stream', op: 'create', streams: [await streamDict(tx, updated)] } });
  }
  if (lost.length) {
    await recordEvent(tx, {
      realmId: actor.realmId,
      type: 'stream',
      users: lost,
      // Ids only: the family stopped sending whole channel objects here (feature level 343).
      event: { type: 'stream', op: 'delete', streams: [{ stream_id: updated.id }], stream_ids: [updated.id] },
    });
  }
  const stay = viewersAfter.filter((id) => viewersBefore.includes(id));
  await emit(tx, actor, updated, stay, 'invite_only', inviteOnly, { history_public_to_subscribers: history, is_web_public: isWebPublic });
  return updated;
}

/** Archives a channel: it keeps its messages and subscriptions but takes no new messages. */
export async function doArchiveStream(services: Services, actor: LoadedActor, streamId: number): Promise<void> {
  await services.db.$transaction(async (tx) => {
    const { stream } = await accessStreamForAdministration(tx, actor, streamId);
    if (stream.isArchived) throw errors.badRequest('Channel is already deactivated');
    const archived = await tx.stream.update({ where: { id: stream.id }, data: { isArchived: true } });
    await dropArchivedStreamFromDefaults(tx, actor.realmId, stream.id);
    const viewers = await streamViewerIds(tx, archived, []);
    // Clients with the archived_channels capability get the update; older ones the delete.
    await recordEvent(tx, {
      realmId: actor.realmId,
      type: 'stream',
      users: viewers,
      event: { type: 'stream', op: 'update', stream_id: stream.id, name: stream.name, property: 'is_archived', value: true },
      routing: {
        capability: 'archived_channels',
        fallback_event: { type: 'stream', op: 'delete', streams: [{ stream_id: archived.id }], stream_ids: [archived.id] },
      },
    });
  });
}
