/** Creating channels. Subscribing users to them lives in subscriptions.ts. */
import type { Stream, Tx } from '@chat/db';
import { errors, LIMITS, SYSTEM_GROUPS } from '@chat/contracts';
import { checkGroupSettingValue, type GroupSettingValue } from '@chat/realm';
import { STREAM_GROUP_SETTINGS, STREAM_GROUP_SETTING_NAMES, type StreamGroupSettingName } from '@chat/wire';
import type { LoadedActor } from '../lib/caller';
import { systemGroupId } from '../lib/groups';
import { DELETE_POLICY_SETTINGS, mayChangeDeletePolicy } from './channel-permissions';
import { recordEvent } from '@chat/bus';
import { renderMarkdown, emptyRenderContext } from '../markdown';
import { streamDict, streamViewerIds } from './stream-dicts';

export interface NewStream {
  name: string;
  description?: string;
  inviteOnly?: boolean;
  historyPublicToSubscribers?: boolean;
  isWebPublic?: boolean;
  topicsPolicy?: string;
  messageRetentionDays?: number | null;
  folderId?: number | null;
  /** Group settings as the request gave them (checked here); those left out keep their defaults. */
  groups?: Partial<Record<StreamGroupSettingName, unknown>>;
}

export function checkStreamName(raw: string): string {
  const name = raw.trim();
  if (!name) throw errors.badRequest("Channel name can't be empty.");
  if ([...name].length > LIMITS.maxStreamNameLength) {
    throw errors.badRequest(`Channel name too long (limit: ${LIMITS.maxStreamNameLength} characters).`);
  }
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f-\u009f]/.test(name)) throw errors.badRequest('Invalid character in channel name.');
  return name;
}

/**
 * The group settings a new channel is given, checked as a change of them would be, by row field.
 * Unless the request names its administrators, the creator administers the channel (an anonymous
 * group of them alone), as in the family.
 */
async function checkNewStreamGroups(tx: Tx, actor: LoadedActor, groups: Partial<Record<StreamGroupSettingName, unknown>>) {
  const data: Record<string, GroupSettingValue> = {};
  if (groups.can_administer_channel_group === undefined) {
    data[STREAM_GROUP_SETTINGS.can_administer_channel_group.field] = { direct_members: [actor.userId], direct_subgroups: [] };
  }
  for (const name of STREAM_GROUP_SETTING_NAMES) {
    if (groups[name] === undefined) continue;
    const value = await checkGroupSettingValue(tx, actor.realmId, name, groups[name], STREAM_GROUP_SETTINGS[name]);
    if (DELETE_POLICY_SETTINGS.includes(name) && value !== (await systemGroupId(tx, actor.realmId, SYSTEM_GROUPS.nobody)) && !(await mayChangeDeletePolicy(tx, actor))) {
      throw errors.insufficientPermission();
    }
    data[STREAM_GROUP_SETTINGS[name].field] = value;
  }
  return data;
}

/** Creates one channel and tells everyone who may see it (`subscriberIds`: about to join). */
export async function doCreateStream(tx: Tx, actor: LoadedActor, spec: NewStream, subscriberIds: number[] = []): Promise<Stream> {
  const name = checkStreamName(spec.name);
  const description = (spec.description ?? '').replace(/\n/g, ' ');
  if ([...description].length > LIMITS.maxStreamDescriptionLength) {
    throw errors.badRequest(`Channel description too long (limit: ${LIMITS.maxStreamDescriptionLength} characters).`);
  }
  const inviteOnly = spec.inviteOnly ?? false;
  // History of a public channel is always readable; only private ones may hide it.
  const historyPublic = inviteOnly ? (spec.historyPublicToSubscribers ?? false) : true;
  const stream = await tx.stream.create({
    data: {
      realmId: actor.realmId,
      name,
      nameKey: name.toLowerCase(),
      description,
      renderedDescription: description ? renderMarkdown(description, emptyRenderContext(actor.realmUrl)).html : '',
      creatorId: actor.userId,
      inviteOnly,
      isWebPublic: spec.isWebPublic ?? false,
      historyPublicToSubscribers: historyPublic,
      topicsPolicy: spec.topicsPolicy ?? 'inherit',
      messageRetentionDays: spec.messageRetentionDays ?? null,
      folderId: spec.folderId ?? null,
      ...(await checkNewStreamGroups(tx, actor, spec.groups ?? {})),
    },
  });
  const viewers = await streamViewerIds(tx, stream, subscriberIds);
  if (viewers.length) {
    await recordEvent(tx, {
      realmId: actor.realmId,
      type: 'stream',
      users: viewers,
      event: { type: 'stream', op: 'create', streams: [await streamDict(tx, stream)] },
    });
  }
  return stream;
}
