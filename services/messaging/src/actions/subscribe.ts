/**
 * POST and DELETE /users/me/subscriptions: resolving channel names (creating missing ones),
 * principals, and who may subscribe or unsubscribe whom.
 */
import type { Db, Stream, Tx } from '@chat/db';
import { errors, isAdmin, isGuest } from '@chat/contracts';
import type { LoadedActor } from '../lib/caller';
import type { Services } from '../context';
import { hasRealmPermission, isInGroupSetting } from '@chat/realm';
import { checkStreamName, doCreateStream, type NewStream } from './streams';
import { canAdministerChannel, channelSettingValue, hasChannelPermission, hasContentAccess, isSubscribed } from './channel-permissions';
import { doSubscribeUsers, doUnsubscribeUsers } from './subscriptions';
import { addDefaultStream } from './default-streams';
import { announceNewChannels } from './channel-announce';

export interface SubscribeRequest {
  streams: Array<{ name: string; description?: string; color?: unknown }>;
  /** The parameter holding `streams`, for errors naming an entry (`subscriptions`, `add`). */
  streamsParam?: string;
  principals?: Array<number | string>;
  authorizationErrorsFatal: boolean;
  /** Settings of channels created by this request. */
  create: Omit<NewStream, 'name' | 'description'>;
  /** Make the channels this request creates default channels (administrators only). */
  isDefaultStream?: boolean;
  /** Tell the new-channel announcements channel about the channels this request creates. */
  announce?: boolean;
}

/** Users named by `principals` (ids or emails), all active members of the realm. */
export async function resolvePrincipals(tx: Tx, actor: LoadedActor, principals: Array<number | string>) {
  const users = [];
  for (const p of principals) {
    const where = typeof p === 'number' ? { id: p, realmId: actor.realmId } : { realmId: actor.realmId, email: { equals: p, mode: 'insensitive' as const } };
    const u = await tx.user.findFirst({ where, select: { id: true, email: true, isActive: true } });
    if (!u || !u.isActive) throw errors.badRequest('No such user');
    users.push(u);
  }
  return users;
}

/**
 * Whether the actor may add others to a channel they may join: the realm's
 * can_add_subscribers_group covers every channel; the channel's administrators and its own
 * can_add_subscribers_group cover it.
 */
async function canSubscribeOthers(tx: Tx, actor: LoadedActor, stream: Stream | null): Promise<boolean> {
  if (isAdmin(actor)) return true;
  if (isGuest(actor)) return false;
  if (await hasRealmPermission(tx, actor.realmId, 'can_add_subscribers_group', actor.userId)) return true;
  if (!stream) return false;
  return (await canAdministerChannel(tx, actor, stream)) || hasChannelPermission(tx, stream, 'can_add_subscribers_group', actor.userId);
}

/**
 * Whether the actor may join (or add people to) an existing channel at all: whoever may read it
 * (for a private channel, through can_subscribe_group or can_add_subscribers_group too), and
 * administrators, who may add subscribers to private channels they are not in.
 */
async function canAccessForSubscribe(tx: Tx, actor: LoadedActor, stream: Stream): Promise<boolean> {
  if (stream.isArchived) return false;
  if (await hasContentAccess(tx, actor, stream, await isSubscribed(tx, actor.userId, stream.id))) return true;
  return stream.inviteOnly && isAdmin(actor);
}

/** Whether the actor may create a channel of this kind (both creation paths use it). */
export async function checkCanCreateStream(tx: Tx, actor: LoadedActor, kind: { inviteOnly?: boolean; isWebPublic?: boolean; isDefaultStream?: boolean }): Promise<void> {
  const key = kind.inviteOnly ? 'can_create_private_channel_group' : 'can_create_public_channel_group';
  if (isGuest(actor) || !(await hasRealmPermission(tx, actor.realmId, key, actor.userId))) throw errors.insufficientPermission();
  if (kind.isWebPublic && !(await hasRealmPermission(tx, actor.realmId, 'can_create_web_public_channel_group', actor.userId))) {
    throw errors.insufficientPermission();
  }
  if (kind.isDefaultStream && !isAdmin(actor)) throw errors.insufficientPermission();
}

const HEX_COLOR = /^#[a-fA-F0-9]{3,6}$/;

/**
 * The colours asked for per channel (by lower-cased name), checked before anything is written.
 * The error is the family's parameter parser's for a failed check of one entry, word for word.
 */
function checkColors(specs: SubscribeRequest['streams'], param: string): Map<string, string> {
  const colors = new Map<string, string>();
  for (const [i, spec] of specs.entries()) {
    if (spec.color === undefined || spec.color === null) continue;
    if (typeof spec.color !== 'string') throw errors.badRequest(`${param}[${i}]["color"] is not a string`);
    if (!HEX_COLOR.test(spec.color)) throw errors.badRequest(`Invalid ${param}[${i}]: Value error, add.color is not a valid hex color code`);
    colors.set(spec.name.trim().toLowerCase(), spec.color);
  }
  return colors;
}

export async function doAddSubscriptions(services: Services, actor: LoadedActor, req: SubscribeRequest) {
  return services.db.$transaction((tx) => addSubscriptionsInTx(tx, actor, req, services.db));
}

/**
 * The subscribing of doAddSubscriptions inside a caller's transaction; `kept`, the service's
 * pool, gives the channel objects this replica's kept traffic counts (loadStreamFacts).
 */
export async function addSubscriptionsInTx(tx: Tx, actor: LoadedActor, req: SubscribeRequest, kept?: Db) {
  if (req.isDefaultStream && req.create.inviteOnly) throw errors.badRequest('A default channel cannot be private.');
  const colors = checkColors(req.streams, req.streamsParam ?? 'subscriptions');
  const principals = req.principals?.length ? await resolvePrincipals(tx, actor, req.principals) : [{ id: actor.userId, email: actor.email }];
  const others = principals.some((u) => u.id !== actor.userId);
  const streams: Stream[] = [];
  const unauthorized: string[] = [];
  const createdStreams: Stream[] = [];
  const seen = new Set<string>();
  for (const spec of req.streams) {
    const name = checkStreamName(spec.name);
    if (seen.has(name.toLowerCase())) continue;
    seen.add(name.toLowerCase());
    const existing = await tx.stream.findFirst({ where: { realmId: actor.realmId, nameKey: name.toLowerCase() } });
    if (existing) {
      if (!(await canAccessForSubscribe(tx, actor, existing))) {
        if (req.authorizationErrorsFatal) throw errors.badRequest(`Unable to access channel (${existing.name}).`);
        unauthorized.push(existing.name);
        continue;
      }
      if (others && !(await canSubscribeOthers(tx, actor, existing))) throw errors.insufficientPermission();
      streams.push(existing);
      continue;
    }
    await checkCanCreateStream(tx, actor, { ...req.create, isDefaultStream: req.isDefaultStream });
    const created = await doCreateStream(tx, actor, { ...req.create, name, description: spec.description }, principals.map((u) => u.id));
    if (req.isDefaultStream) await addDefaultStream(tx, created);
    streams.push(created);
    createdStreams.push(created);
  }
  const subscribed: Record<string, string[]> = {};
  const already: Record<string, string[]> = {};
  for (const stream of streams) {
    const added = new Set(await doSubscribeUsers(tx, actor, stream, principals.map((u) => u.id), kept, colors.get(stream.nameKey)));
    for (const u of principals) {
      const bucket = added.has(u.id) ? subscribed : already;
      (bucket[String(u.id)] ??= []).push(stream.name);
    }
  }
  if (req.announce) await announceNewChannels(tx, actor, createdStreams);
  const result: Record<string, unknown> = { subscribed, already_subscribed: already, new_subscription_messages_sent: false };
  if (!req.authorizationErrorsFatal) result.unauthorized = unauthorized;
  return result;
}

export async function doRemoveSubscriptions(services: Services, actor: LoadedActor, names: string[], principals?: Array<number | string>) {
  return services.db.$transaction((tx) => removeSubscriptionsInTx(tx, actor, names, principals));
}

/** The unsubscribing of doRemoveSubscriptions inside a caller's transaction. */
export async function removeSubscriptionsInTx(tx: Tx, actor: LoadedActor, names: string[], principals?: Array<number | string>) {
  const users = principals?.length ? await resolvePrincipals(tx, actor, principals) : [{ id: actor.userId, email: actor.email }];
  const streams: Stream[] = [];
  const missing: string[] = [];
  for (const raw of names) {
    const s = await tx.stream.findFirst({ where: { realmId: actor.realmId, nameKey: raw.trim().toLowerCase() } });
    if (!s) missing.push(raw);
    else streams.push(s);
  }
  if (missing.length) throw errors.badRequest(`Channel(s) (${missing.join(', ')}) do not exist`);
  const removed: string[] = [];
  const notRemoved: string[] = [];
  for (const stream of streams) {
    // Channel administrators may unsubscribe anyone, even from a private channel they are not in.
    if (users.some((u) => u.id !== actor.userId) && !(await canAdministerChannel(tx, actor, stream))) {
      const value = await channelSettingValue(tx, stream, 'can_remove_subscribers_group');
      if (!(await isInGroupSetting(tx, actor.realmId, value, actor.userId))) throw errors.insufficientPermission();
      if (stream.inviteOnly && !(await isSubscribed(tx, actor.userId, stream.id))) {
        throw errors.badRequest(`Unable to access channel (${stream.name}).`);
      }
    }
    const gone = await doUnsubscribeUsers(tx, actor, stream, users.map((u) => u.id));
    for (const u of users) (gone.includes(u.id) ? removed : notRemoved).push(stream.name);
  }
  return { removed, not_removed: notRemoved };
}

/**
 * PATCH /users/me/subscriptions: the caller's additions and removals in one transaction, so a
 * refused removal undoes the additions. Every key of both answers is present, empty lists and
 * objects included, as the family's response schema requires.
 */
export async function doUpdateOwnSubscriptions(services: Services, actor: LoadedActor, add: SubscribeRequest['streams'], remove: string[]) {
  if (!add.length && !remove.length) throw errors.badRequest('Nothing to do. Specify at least one of "add" or "delete".');
  return services.db.$transaction(async (tx) => {
    const added = add.length
      ? await addSubscriptionsInTx(tx, actor, { streams: add, streamsParam: 'add', authorizationErrorsFatal: true, create: {} }, services.db)
      : { subscribed: {}, already_subscribed: {} };
    const removed = remove.length ? await removeSubscriptionsInTx(tx, actor, remove) : { removed: [], not_removed: [] };
    return { ...added, ...removed };
  });
}
