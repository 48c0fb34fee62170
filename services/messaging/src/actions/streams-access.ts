/** Finding channels and deciding what a user may do in them. */
import type { Db, Realm, Stream, Subscription, Tx } from '@chat/db';
import { errors, isAdmin, isGuest } from '@chat/contracts';
import type { LoadedActor } from '../lib/context';
import { isInGroupSetting, SYSTEM_GROUPS, type Member } from '@chat/realm';
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

export interface StreamAccess {
  stream: Stream;
  sub: Subscription | null;
  /** Whether the user may see the channel exists (name, description, subscribers). */
  canSee: boolean;
  /** Whether the user may read messages in the channel they have no user_messages row for. */
  canReadHistory: boolean;
}

/**
 * What a user may see of one channel. Public channels are open to every member (guests only
 * when the channel is web-public);
 * private ones only to subscribers, and a subscriber reads history from before they joined only
 * when the channel's history is public to subscribers.
 */
export function streamAccessOf(actor: LoadedActor, stream: Stream, sub: Subscription | null): StreamAccess {
  const subscribed = !!sub?.active;
  // Web-public channels are open to guests too (as to spectators); other public ones are not.
  const publicToUser = !stream.inviteOnly && (!isGuest(actor) || stream.isWebPublic);
  const canSee = publicToUser || subscribed || (stream.inviteOnly && isAdmin(actor));
  const canReadHistory = (publicToUser && stream.historyPublicToSubscribers) || (subscribed && stream.historyPublicToSubscribers);
  return { stream, sub, canSee, canReadHistory };
}

export async function accessStream(db: Client, actor: LoadedActor, streamId: number): Promise<StreamAccess> {
  const stream = await db.stream.findFirst({ where: { id: streamId, realmId: actor.realmId } });
  if (!stream) throw errors.invalidStreamId();
  const sub = await db.subscription.findUnique({ where: { userId_streamId: { userId: actor.userId, streamId } } });
  const access = streamAccessOf(actor, stream, sub);
  if (!access.canSee) throw errors.invalidStreamId();
  return access;
}
