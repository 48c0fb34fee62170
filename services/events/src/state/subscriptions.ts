/** subscription and stream: channels as the viewer sees them, with their subscriber lists. */
import type { Db, Stream, Subscription } from '@chat/db';
import { LIMITS, ROLE } from '@chat/contracts';
import { DEFAULT_USER_SETTINGS, SYSTEM_GROUPS } from '@chat/realm';
import type { StateOptions } from '.';

const seconds = (d: Date) => Math.floor(d.getTime() / 1000);
const RECENT_DAYS = 7;
const PARTIAL_ACTIVE_DAYS = 14;

async function systemGroupIds(db: Db, realmId: number): Promise<Map<string, number>> {
  const groups = await db.userGroup.findMany({ where: { realmId, isSystemGroup: true }, select: { id: true, name: true } });
  return new Map(groups.map((g) => [g.name, g.id]));
}

/** Last message time per channel, for is_recently_active. */
async function lastActivity(db: Db, streamIds: number[]): Promise<Map<number, Date>> {
  if (!streamIds.length) return new Map();
  const rows = await db.message.groupBy({ by: ['streamId'], where: { streamId: { in: streamIds } }, _max: { dateSent: true } });
  return new Map(rows.filter((r) => r.streamId !== null && r._max.dateSent).map((r) => [r.streamId!, r._max.dateSent!]));
}

export function streamObject(s: Stream, groups: Map<string, number>, recent: Map<number, Date>, subscriberCount: number) {
  const last = recent.get(s.id);
  return {
    stream_id: s.id,
    name: s.name,
    description: s.description,
    rendered_description: s.renderedDescription,
    date_created: seconds(s.dateCreated),
    creator_id: s.creatorId,
    invite_only: s.inviteOnly,
    is_web_public: s.isWebPublic,
    is_announcement_only: s.streamPostPolicy === 2,
    stream_post_policy: s.streamPostPolicy,
    message_retention_days: s.messageRetentionDays,
    history_public_to_subscribers: s.historyPublicToSubscribers,
    first_message_id: s.firstMessageId,
    folder_id: s.folderId,
    topics_policy: s.topicsPolicy,
    is_archived: s.isArchived,
    is_recently_active: !!last && Date.now() - last.getTime() < RECENT_DAYS * 86400_000,
    stream_weekly_traffic: null,
    subscriber_count: subscriberCount,
    can_add_subscribers_group: s.canAddSubscribersGroup ?? groups.get(SYSTEM_GROUPS.nobody) ?? null,
    can_remove_subscribers_group: s.canRemoveSubscribersGroup ?? groups.get(SYSTEM_GROUPS.administrators) ?? null,
    can_send_message_group: s.canSendMessageGroup ?? groups.get(SYSTEM_GROUPS.everyone) ?? null,
    can_administer_channel_group: groups.get(SYSTEM_GROUPS.nobody) ?? null,
  };
}

/** What a stream's subscriber list looks like under include_subscribers. */
function subscriberFields(
  mode: StateOptions['includeSubscribers'],
  subscribers: number[],
  partial: (ids: number[]) => number[],
): Record<string, number[]> {
  if (mode === false) return {};
  if (mode === true || subscribers.length < LIMITS.partialSubscribersThreshold) return { subscribers };
  return { partial_subscribers: partial(subscribers) };
}

export async function subscriptionsSection(db: Db, opts: StateOptions): Promise<Record<string, unknown>> {
  const realmId = opts.realm.id;
  const userId = opts.identity.userId;
  const isAdmin = (opts.identity.role ?? ROLE.GUEST) <= ROLE.ADMINISTRATOR;
  const isGuest = opts.identity.role === ROLE.GUEST || userId === undefined;
  const archived = opts.clientCapabilities.archived_channels === true;
  const [streams, subs, groups, user] = await Promise.all([
    db.stream.findMany({ where: { realmId, ...(archived ? {} : { isArchived: false }) }, orderBy: { id: 'asc' } }),
    db.subscription.findMany({ where: { active: true, stream: { realmId }, user: { isActive: true } }, select: { streamId: true, userId: true } }),
    systemGroupIds(db, realmId),
    userId !== undefined ? db.user.findUnique({ where: { id: userId } }) : null,
  ]);
  const mine: Subscription[] = userId !== undefined ? await db.subscription.findMany({ where: { userId, stream: { realmId } } }) : [];
  const recent = await lastActivity(db, streams.map((s) => s.id));
  const subscribersOf = new Map<number, number[]>();
  for (const s of subs) {
    const list = subscribersOf.get(s.streamId) ?? [];
    list.push(s.userId);
    subscribersOf.set(s.streamId, list);
  }
  const partial = await partialSubscriberPicker(db, realmId, opts.includeSubscribers === 'partial');
  const settings = { ...DEFAULT_USER_SETTINGS, ...((user?.settings ?? {}) as Record<string, unknown>) };
  const nullable = opts.clientCapabilities.notification_settings_null === true;
  const inherit = (value: boolean | null, setting: string) => (value === null && !nullable ? Boolean(settings[setting]) : value);
  const mySub = new Map(mine.map((s) => [s.streamId, s]));

  const subscriptions: unknown[] = [];
  const unsubscribed: unknown[] = [];
  const neverSubscribed: unknown[] = [];
  for (const s of streams) {
    const subscribers = (subscribersOf.get(s.id) ?? []).sort((a, b) => a - b);
    const base = streamObject(s, groups, recent, subscribers.length);
    const sub = mySub.get(s.id);
    const canSeeSubscribers = !s.inviteOnly || isAdmin || sub?.active === true;
    const subscriberInfo = canSeeSubscribers ? subscriberFields(opts.includeSubscribers, subscribers, partial) : {};
    if (sub) {
      const full = {
        ...base,
        ...subscriberInfo,
        color: sub.color,
        is_muted: sub.isMuted,
        in_home_view: !sub.isMuted,
        pin_to_top: sub.pinToTop,
        desktop_notifications: inherit(sub.desktopNotifications, 'enable_stream_desktop_notifications'),
        email_notifications: inherit(sub.emailNotifications, 'enable_stream_email_notifications'),
        push_notifications: inherit(sub.pushNotifications, 'enable_stream_push_notifications'),
        audible_notifications: inherit(sub.audibleNotifications, 'enable_stream_audible_notifications'),
        wildcard_mentions_notify: inherit(sub.wildcardMentionsNotify, 'wildcard_mentions_notify'),
      };
      (sub.active ? subscriptions : unsubscribed).push(full);
    } else if (!isGuest && (!s.inviteOnly || isAdmin)) {
      neverSubscribed.push({ ...base, ...subscriberInfo });
    } else if (userId === undefined && s.isWebPublic) {
      neverSubscribed.push(base);
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
  const realmId = opts.realm.id;
  const isAdmin = (opts.identity.role ?? ROLE.GUEST) <= ROLE.ADMINISTRATOR;
  const userId = opts.identity.userId;
  const archived = opts.clientCapabilities.archived_channels === true;
  const [streams, groups, mine] = await Promise.all([
    db.stream.findMany({ where: { realmId, ...(archived ? {} : { isArchived: false }) }, orderBy: { id: 'asc' } }),
    systemGroupIds(db, realmId),
    userId !== undefined ? db.subscription.findMany({ where: { userId, active: true }, select: { streamId: true } }) : [],
  ]);
  const subscribed = new Set(mine.map((s) => s.streamId));
  const counts = await db.subscription.groupBy({ by: ['streamId'], where: { active: true, stream: { realmId } }, _count: { _all: true } });
  const countOf = new Map(counts.map((c) => [c.streamId, c._count._all]));
  const recent = await lastActivity(db, streams.map((s) => s.id));
  const visible = streams.filter((s) =>
    userId === undefined ? s.isWebPublic : !s.inviteOnly ? opts.identity.role !== ROLE.GUEST || subscribed.has(s.id) : isAdmin || subscribed.has(s.id),
  );
  return { streams: visible.map((s) => streamObject(s, groups, recent, countOf.get(s.id) ?? 0)) };
}
