/** subscription and stream: channels as the viewer sees them, with their subscriber lists. */
import type { Db, Stream, Subscription } from '@chat/db';
import { LIMITS, optionalActor } from '@chat/contracts';
import { channelAccess, DEFAULT_USER_SETTINGS } from '@chat/realm';
import { channelTraffic, inheritNotificationSettings, streamFactsFrom, streamObject, subscriptionObject, type StreamFacts, type SubscriberList } from '@chat/wire';
import { once } from './kept';
import { viewerRow } from './realm-people';
import { registerRows } from './register-rows';
import type { StateOptions } from '.';

const PARTIAL_ACTIVE_DAYS = 14;

/** The realm's channels the viewer could be told of (archived ones only to clients that take them). */
async function channelRows(db: Db, opts: StateOptions): Promise<Stream[]> {
  const archived = opts.clientCapabilities.archived_channels === true;
  const { streams } = await registerRows(db, opts);
  return archived ? streams : streams.filter((s) => !s.isArchived);
}

/** Facts of all those channels; each section uses those of the channels it shows. */
function channelFacts(db: Db, opts: StateOptions): Promise<Map<number, StreamFacts>> {
  return once(opts, 'facts', async () => {
    const [streams, rows, recentCounts] = await Promise.all([channelRows(db, opts), registerRows(db, opts), channelTraffic(db, opts.realm.id)]);
    return streamFactsFrom(streams, { ...rows, recentCounts });
  });
}

/** The viewer's subscription rows in the realm, active or not. */
async function mySubscriptions(db: Db, opts: StateOptions): Promise<Subscription[]> {
  return (await registerRows(db, opts)).subscriptions;
}

/** What a stream's subscriber list looks like under include_subscribers. */
function subscriberList(
  mode: StateOptions['includeSubscribers'],
  subscribers: number[],
  partial: (ids: number[]) => number[],
): SubscriberList | undefined {
  if (mode === false) return undefined;
  if (mode === true || subscribers.length < LIMITS.partialSubscribersThreshold) return { subscribers };
  return { partial_subscribers: partial(subscribers) };
}

export async function subscriptionsSection(db: Db, opts: StateOptions): Promise<Record<string, unknown>> {
  const realmId = opts.realm.id;
  const viewer = optionalActor(opts.identity);
  const [streams, subs, user, mine, facts] = await Promise.all([
    channelRows(db, opts),
    // Every subscriber of every channel (a row per person and channel): read only when the lists are sent.
    opts.includeSubscribers === false
      ? []
      : db.subscription.findMany({ where: { active: true, stream: { realmId }, user: { isActive: true } }, select: { streamId: true, userId: true } }),
    viewerRow(db, opts),
    mySubscriptions(db, opts),
    channelFacts(db, opts),
  ]);
  const subscribersOf = new Map<number, number[]>();
  for (const s of subs) {
    const list = subscribersOf.get(s.streamId) ?? [];
    list.push(s.userId);
    subscribersOf.set(s.streamId, list);
  }
  const partial = await partialSubscriberPicker(db, realmId, opts.includeSubscribers === 'partial');
  const settings = { ...DEFAULT_USER_SETTINGS, ...((user?.settings ?? {}) as Record<string, unknown>) };
  // Clients without notification_settings_null take booleans only.
  const nullable = opts.clientCapabilities.notification_settings_null === true;
  const mySub = new Map(mine.map((s) => [s.streamId, s]));

  const subscriptions: unknown[] = [];
  const unsubscribed: unknown[] = [];
  const neverSubscribed: unknown[] = [];
  for (const s of streams) {
    const subscribers = (subscribersOf.get(s.id) ?? []).sort((a, b) => a - b);
    const sub = mySub.get(s.id);
    const access = channelAccess(viewer, s, sub ?? null);
    const list = access.canSeeSubscribers ? subscriberList(opts.includeSubscribers, subscribers, partial) : undefined;
    if (sub) {
      const full = subscriptionObject(s, sub, facts.get(s.id)!, list);
      (sub.active ? subscriptions : unsubscribed).push(nullable ? full : inheritNotificationSettings(full, settings));
    } else if (access.canSee) {
      // Spectators see web-public channels without their subscribers.
      neverSubscribed.push(streamObject(s, facts.get(s.id)!, viewer === null ? undefined : list));
    }
  }
  return { subscriptions, unsubscribed, never_subscribed: neverSubscribed };
}

/**
 * For include_subscribers=partial on big channels: bots plus users who sent a message in the
 * last 14 days, the subscribers a client most likely needs to render recent conversations.
 */
async function partialSubscriberPicker(db: Db, realmId: number, needed: boolean): Promise<(ids: number[]) => number[]> {
  if (!needed) return (ids) => ids;
  const since = new Date(Date.now() - PARTIAL_ACTIVE_DAYS * 86400_000);
  const [bots, active] = await Promise.all([
    db.user.findMany({ where: { realmId, isBot: true }, select: { id: true } }),
    db.message.groupBy({ by: ['senderId'], where: { realmId, dateSent: { gte: since } } }),
  ]);
  const keep = new Set([...bots.map((b) => b.id), ...active.map((a) => a.senderId)]);
  return (ids) => ids.filter((id) => keep.has(id));
}

export async function streamsSection(db: Db, opts: StateOptions): Promise<Record<string, unknown>> {
  const viewer = optionalActor(opts.identity);
  const [streams, mine, facts] = await Promise.all([channelRows(db, opts), mySubscriptions(db, opts), channelFacts(db, opts)]);
  const subscribed = new Set(mine.filter((s) => s.active).map((s) => s.streamId));
  const visible = streams.filter((s) => channelAccess(viewer, s, { active: subscribed.has(s.id) }).canSee);
  return { streams: visible.map((s) => streamObject(s, facts.get(s.id)!)) };
}
