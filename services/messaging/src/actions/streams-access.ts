/** Finding channels and deciding what a user may do in them. */
import type { Db, Realm, Stream, Subscription, Tx } from '@chat/db';
import { errors, isGuest } from '@chat/contracts';
import type { LoadedActor } from '../lib/caller';
import { channelAccess, isInGroupSetting, SYSTEM_GROUPS, type ChannelAccess, type Member } from '@chat/realm';
import { settingOrDefault } from '../lib/groups';

type Client = Db | Tx;

/** The filter naming one channel of the realm, by id or by name. */
function streamWhere(realmId: number, target: { id: number } | { name: string }) {
  return 'id' in target ? { id: target.id, realmId } : { realmId, nameKey: target.name.trim().toLowerCase() };
}

export async function findStream(db: Client, realmId: number, target: { id: number } | { name: string }): Promise<Stream | null> {
  return db.stream.findFirst({ where: streamWhere(realmId, target) });
}

export function effectiveTopicsPolicy(stream: Pick<Stream, 'topicsPolicy'>, realm: Pick<Realm, 'topicsPolicy'>): string {
  return stream.topicsPolicy === 'inherit' ? realm.topicsPolicy : stream.topicsPolicy;
}

/** `member` saves reading the actor's row when the caller holds it. */
export async function checkStreamPostAllowed(db: Client, actor: LoadedActor, stream: Stream, subscribed: boolean, member?: Member): Promise<void> {
  const denied = () => errors.badRequest(`Not authorized to send to channel '${stream.name}'`);
  if (stream.isArchived) throw denied();
  if ((stream.inviteOnly || isGuest(actor)) && !subscribed) throw denied();
  const allowed = await settingOrDefault(db as Tx, stream.realmId, stream.canSendMessageGroup, SYSTEM_GROUPS.everyone);
  if (!(await isInGroupSetting(db as Tx, actor.realmId, allowed, member ?? actor.userId))) {
    throw errors.badRequest('You do not have permission to post in this channel.');
  }
}

/** A channel, the viewer's subscription to it, and what they may do there (@chat/realm channelAccess). */
export interface StreamAccess extends ChannelAccess {
  stream: Stream;
  sub: Subscription | null;
}

export function streamAccessOf(actor: LoadedActor, stream: Stream, sub: Subscription | null): StreamAccess {
  return { stream, sub, ...channelAccess(actor, stream, sub) };
}

export async function accessStream(db: Client, actor: LoadedActor, streamId: number): Promise<StreamAccess> {
  const stream = await db.stream.findFirst({ where: { id: streamId, realmId: actor.realmId } });
  if (!stream) throw errors.invalidStreamId();
  const sub = await db.subscription.findUnique({ where: { userId_streamId: { userId: actor.userId, streamId } } });
  const access = streamAccessOf(actor, stream, sub);
  if (!access.canSee) throw errors.invalidStreamId();
  return access;
}
