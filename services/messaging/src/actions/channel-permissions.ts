/**
 * A channel's group settings (@chat/wire STREAM_GROUP_SETTINGS): their values with defaults
 * resolved, who holds each, and who may administer the channel, as the family's
 * zerver/lib/streams.py decides them. Every check of a channel-level permission goes through here.
 */
import type { Db, Stream, Tx } from '@chat/db';
import { errors, isAdmin, isGuest } from '@chat/contracts';
import { hasGroupPermission, hasRealmPermission, type GroupSettingValue, type MemberRef } from '@chat/realm';
import { STREAM_GROUP_SETTINGS, type StreamGroupSettingName } from '@chat/wire';
import type { LoadedActor } from '../lib/caller';
import { settingOrDefault } from '../lib/groups';

type Reader = Db | Tx;

/** The setting's value on this channel: as stored, or its default system group. */
export async function channelSettingValue(db: Reader, stream: Stream, name: StreamGroupSettingName): Promise<GroupSettingValue> {
  const { field, defaultGroup } = STREAM_GROUP_SETTINGS[name];
  return settingOrDefault(db as Tx, stream.realmId, stream[field], defaultGroup);
}

/** Whether the person holds the channel permission `name` (guests never hold those that may not be everyone). */
export async function hasChannelPermission(db: Reader, stream: Stream, name: StreamGroupSettingName, who: MemberRef): Promise<boolean> {
  return hasGroupPermission(db, stream.realmId, await channelSettingValue(db, stream, name), who, STREAM_GROUP_SETTINGS[name]);
}

/** Organization administrators administer every channel; others through can_administer_channel_group. */
export async function canAdministerChannel(db: Reader, actor: LoadedActor, stream: Stream): Promise<boolean> {
  return isAdmin(actor) || hasChannelPermission(db, stream, 'can_administer_channel_group', actor.userId);
}

/**
 * Whether the person may read the channel's messages and join it (the family's "content
 * access"): web-public channels, channels they are subscribed to, public ones unless a guest,
 * and private ones through can_subscribe_group or can_add_subscribers_group. Organization
 * administrators get no content access from their role.
 */
export async function hasContentAccess(db: Reader, actor: LoadedActor, stream: Stream, subscribed: boolean): Promise<boolean> {
  if (stream.isWebPublic || subscribed) return true;
  if (isGuest(actor)) return false;
  if (!stream.inviteOnly) return true;
  return (
    (await hasChannelPermission(db, stream, 'can_subscribe_group', actor.userId)) ||
    (await hasChannelPermission(db, stream, 'can_add_subscribers_group', actor.userId))
  );
}

/** Channel settings that only those with the realm's can_set_delete_message_policy_group may change. */
export const DELETE_POLICY_SETTINGS: readonly StreamGroupSettingName[] = ['can_delete_any_message_group', 'can_delete_own_message_group'];

/** Organization administrators always may; others through can_set_delete_message_policy_group. */
export async function mayChangeDeletePolicy(db: Reader, actor: LoadedActor): Promise<boolean> {
  return isAdmin(actor) || hasRealmPermission(db, actor.realmId, 'can_set_delete_message_policy_group', actor.userId);
}

export async function isSubscribed(db: Reader, userId: number, streamId: number): Promise<boolean> {
  const sub = await db.subscription.findUnique({ where: { userId_streamId: { userId, streamId } }, select: { active: true } });
  return !!sub?.active;
}

/**
 * The channel, for changing or archiving it: organization administrators and the members of its
 * can_administer_channel_group. Someone else who may read the channel is told they may not
 * administer it; anyone else learns nothing of it (`Invalid channel ID`), as in the family.
 */
export async function accessStreamForAdministration(db: Reader, actor: LoadedActor, streamId: number): Promise<{ stream: Stream; subscribed: boolean }> {
  const stream = await db.stream.findFirst({ where: { id: streamId, realmId: actor.realmId } });
  if (!stream) throw errors.invalidStreamId();
  const subscribed = await isSubscribed(db, actor.userId, stream.id);
  if (await canAdministerChannel(db, actor, stream)) return { stream, subscribed };
  if (await hasContentAccess(db, actor, stream, subscribed)) throw errors.badRequest('You do not have permission to administer this channel.');
  throw errors.invalidStreamId();
}
