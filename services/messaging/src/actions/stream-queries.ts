/** Read side of channels: listings, one channel, subscribers, topics. */
import type { Stream } from '@chat/db';
import { EMPTY_TOPIC_DISPLAY_NAME, errors, isAdmin, isGuest } from '@chat/contracts';
import type { LoadedActor } from '../lib/caller';
import type { Services } from '../context';
import { activeSubscriberIds, activeSubscriberIdsOf, streamDict, streamDicts, subscriptionDicts } from './stream-dicts';
import { accessStream, streamAccessOf } from './streams-access';
import { canAccessUser, channelAccess } from '@chat/realm';

export interface StreamListQuery {
  includePublic: boolean;
  includeWebPublic: boolean;
  includeSubscribed: boolean;
  excludeArchived: boolean;
  includeAllActive: boolean;
  includeDefault: boolean;
  includeOwnerSubscribed: boolean;
  includeCanAccessContent: boolean;
}

export async function listStreams(services: Services, actor: LoadedActor, q: StreamListQuery) {
  const { db } = services;
  if (q.includeAllActive && !isAdmin(actor)) throw errors.badRequest('User not authorized for this query');
  const all = await db.stream.findMany({ where: { realmId: actor.realmId, ...(q.excludeArchived ? { isArchived: false } : {}) }, orderBy: { id: 'asc' } });
  const subs = await db.subscription.findMany({ where: { userId: actor.userId, active: true }, select: { streamId: true } });
  const subscribed = new Set(subs.map((s) => s.streamId));
  let ownerSubscribed = new Set<number>();
  if (q.includeOwnerSubscribed && actor.isBot) {
    const bot = await db.user.findUniqueOrThrow({ where: { id: actor.userId }, select: { botOwnerId: true } });
    if (bot.botOwnerId) {
      const rows = await db.subscription.findMany({ where: { userId: bot.botOwnerId, active: true }, select: { streamId: true } });
      ownerSubscribed = new Set(rows.map((r) => r.streamId));
    }
  }
  const picked = all.filter((s) => {
    if (q.includeAllActive) return true;
    if (q.includeSubscribed && subscribed.has(s.id)) return true;
    if (q.includePublic && !s.inviteOnly && !isGuest(actor)) return true;
    if (q.includeWebPublic && s.isWebPublic) return true;
    if (ownerSubscribed.has(s.id)) return true;
    return q.includeCanAccessContent && channelAccess(actor, s, { active: subscribed.has(s.id) }).canReadContent;
  });
  const streams = await streamDicts(db, picked, db);
  if (q.includeDefault) {
    // Default channels are a realm setting: a list of channel ids new users join.
    const realm = await db.realm.findUniqueOrThrow({ where: { id: actor.realmId }, select: { settings: true } });
    const defaults = new Set(((realm.settings as Record<string, unknown>)?.default_stream_ids as number[] | undefined) ?? []);
    for (const d of streams) d.is_default = defaults.has(d.stream_id as number);
  }
  return streams;
}

export async function getStream(services: Services, actor: LoadedActor, streamId: number) {
  const { stream } = await accessStream(services.db, actor, streamId);
  return streamDict(services.db, stream, services.db);
}

export async function getStreamId(services: Services, actor: LoadedActor, name: string): Promise<number> {
  const stream = await services.db.stream.findFirst({ where: { realmId: actor.realmId, nameKey: name.trim().toLowerCase() } });
  const sub = stream ? await services.db.subscription.findUnique({ where: { userId_streamId: { userId: actor.userId, streamId: stream.id } } }) : null;
  if (!stream || !streamAccessOf(actor, stream, sub).canSee) throw errors.badRequest(`Invalid channel name '${name}'`);
  return stream.id;
}

export async function streamMembers(services: Services, actor: LoadedActor, streamId: number): Promise<number[]> {
  const access = await accessStream(services.db, actor, streamId);
  if (!access.canSeeSubscribers) throw errors.invalidStreamId();
  return activeSubscriberIds(services.db, streamId);
}

export async function isUserSubscribed(services: Services, actor: LoadedActor, userId: number, streamId: number): Promise<boolean> {
  const user = await services.db.user.findFirst({ where: { id: userId, realmId: actor.realmId } });
  if (!user) throw errors.badRequest('No such user');
  // A restricted guest learns nothing about people they may not see, not even their channels.
  if (!(await canAccessUser(services.db, actor.realmId, { id: actor.userId, role: actor.role }, user))) throw errors.insufficientPermission();
  await accessStream(services.db, actor, streamId);
  const sub = await services.db.subscription.findUnique({ where: { userId_streamId: { userId, streamId } } });
  return !!sub?.active;
}

/** The user's subscriptions with every field of the subscription object. */
export async function listSubscriptions(services: Services, actor: LoadedActor, includeSubscribers: boolean) {
  const subs = await services.db.subscription.findMany({ where: { userId: actor.userId, active: true }, include: { stream: true }, orderBy: { streamId: 'asc' } });
  const subscribers = includeSubscribers ? await activeSubscriberIdsOf(services.db, subs.map((s) => s.streamId)) : undefined;
  const rows = subs.map((sub) => ({ stream: sub.stream as Stream, sub, subscribers: subscribers?.get(sub.streamId) }));
  return subscriptionDicts(services.db, rows, services.db);
}

/** Topics of a channel the user may read, most recently active first. */
export async function streamTopics(services: Services, actor: LoadedActor, streamId: number, allowEmptyTopicName: boolean) {
  const access = await accessStream(services.db, actor, streamId);
  const rows = access.canReadHistory
    ? await services.db.$queryRawUnsafe<Array<{ name: string; max_id: number }>>(
        `SELECT DISTINCT ON (lower(topic)) topic AS name, max(id) OVER (PARTITION BY lower(topic)) AS max_id
           FROM messages WHERE stream_id = $1 ORDER BY lower(topic), id DESC`,
        streamId,
      )
    : await services.db.$queryRawUnsafe<Array<{ name: string; max_id: number }>>(
        `SELECT DISTINCT ON (lower(m.topic)) m.topic AS name, max(m.id) OVER (PARTITION BY lower(m.topic)) AS max_id
           FROM messages m JOIN user_messages um ON um.message_id = m.id AND um.user_id = $2
          WHERE m.stream_id = $1 ORDER BY lower(m.topic), m.id DESC`,
        streamId,
        actor.userId,
      );
  return rows
    .sort((a, b) => b.max_id - a.max_id)
    .map((r) => ({ name: r.name === '' && !allowEmptyTopicName ? EMPTY_TOPIC_DISPLAY_NAME : r.name, max_id: r.max_id }));
}
