/**
 * The rows of register's many small sections, read in one statement (ADR 0020).
 *
 * Register answers from some thirty tables, most of which hold a handful of rows for the realm or
 * the viewer: linkifiers, drafts, muted users, onboarding steps and so on. Read one model query
 * each, the round trips, the client's handling of each query and the replies cost register more
 * than Postgres spends finding the rows. This statement reads all of them as JSON arrays in one
 * round trip on the pool (`rawQuery`), and `rowFromJson` turns each row into the model's shape,
 * so the sections keep building from the types they know. What is large or has its own
 * keeping stays apart: the realm's people and groups (kept per replica, kept.ts), the unread
 * messages (unreads.ts), presence, and the channels' traffic (kept per replica, traffic.ts).
 *
 * $1 is the realm, $2 the viewer (null for a spectator, whose per-user lists are then empty).
 */
import { flagBit } from '@chat/contracts';
import { rawQuery, rowFromJson, type Db } from '@chat/db';
import type {
  AlertWord, ChannelFolder, CustomProfileField, DefaultStreamGroup, Draft, Linkifier, MutedUser, NavigationView, PushDevice,
  RealmDomain, RealmEmoji, RealmPlayground, SavedSnippet, ScheduledMessage, Stream, Subscription, UserStatus, UserTopic,
} from '@chat/db';
import { once } from './kept';
import type { StateOptions } from '.';

/** The API family's cap on register's starred_messages. */
export const MAX_STARRED_MESSAGES = 10_000;
const STARRED = flagBit('starred');
const IS_PRIVATE = flagBit('is_private');
const RECENT_CONVERSATIONS_LIMIT = 1000;

/**
 * `json_agg` of whole rows of `table` (alias t) where `where`, ordered, as a JSON array never
 * null. `row` replaces the row's JSON, for columns JSON cannot carry exactly.
 */
const rows = (table: string, where: string, order = 't.id', row = 'to_jsonb(t)') =>
  `(SELECT coalesce(json_agg(${row} ORDER BY ${order}), '[]') FROM ${table} t WHERE ${where})`;

/** 64-bit ids as text: a JSON number past 2^53 would lose digits on the way to BigInt. */
const PUSH_DEVICE_ROW = `to_jsonb(t) || jsonb_build_object(${['device_id', 'push_key_id', 'push_token_id', 'pending_push_token_id']
  .map((c) => `'${c}', t.${c}::text`).join(', ')})`;

export const REGISTER_ROWS_SQL = `
  SELECT
    ${rows('streams', 't.realm_id = $1')} AS streams,
    (SELECT coalesce(json_agg(to_jsonb(t) ORDER BY t.id), '[]')
       FROM subscriptions t JOIN streams s ON s.id = t.stream_id
      WHERE t.user_id = $2 AND s.realm_id = $1) AS subscriptions,
    (SELECT coalesce(json_agg(json_build_array(g.name, g.id)), '[]')
       FROM user_groups g WHERE g.realm_id = $1 AND g.is_system_group) AS system_groups,
    (SELECT coalesce(json_agg(json_build_array(c.stream_id, c.n)), '[]') FROM (
       SELECT t.stream_id, count(*)::int AS n
         FROM subscriptions t JOIN streams s ON s.id = t.stream_id JOIN users u ON u.id = t.user_id
        WHERE s.realm_id = $1 AND t.active AND u.is_active
        GROUP BY t.stream_id) c) AS subscriber_counts,
    (SELECT coalesce(json_agg(json_build_array(s.id, l.date_sent)), '[]')
       FROM streams s CROSS JOIN LATERAL (
         SELECT m.date_sent FROM messages m WHERE m.stream_id = s.id ORDER BY m.id DESC LIMIT 1) l
      WHERE s.realm_id = $1) AS last_messages,
    ${rows('linkifiers', 't.realm_id = $1', 't."order", t.id')} AS linkifiers,
    ${rows('realm_playgrounds', 't.realm_id = $1')} AS playgrounds,
    ${rows('navigation_views', 't.user_id = $2')} AS navigation_views,
    ${rows('saved_snippets', 't.user_id = $2')} AS saved_snippets,
    ${rows('alert_words', 't.user_id = $2')} AS alert_words,
    ${rows('user_statuses', 't.realm_id = $1', 't.user_id')} AS user_statuses,
    ${rows('custom_profile_fields', 't.realm_id = $1', 't."order", t.id')} AS custom_profile_fields,
    ${rows('channel_folders', 't.realm_id = $1', 't."order", t.id')} AS channel_folders,
    ${rows('realm_emoji', 't.realm_id = $1 AND t.file_name IS NOT NULL')} AS realm_emoji,
    ${rows('realm_domains', 't.realm_id = $1', 't.domain')} AS realm_domains,
    ${rows('default_stream_groups', 't.realm_id = $1')} AS default_stream_groups,
    ${rows('push_devices', 't.user_id = $2', 't.device_id', PUSH_DEVICE_ROW)} AS push_devices,
    ${rows('muted_users', 't.user_id = $2', 't.date_muted, t.id')} AS muted_users,
    (SELECT coalesce(json_agg(t.onboarding_step), '[]') FROM onboarding_steps t WHERE t.user_id = $2) AS onboarding_steps,
    ${rows('drafts', 't.user_id = $2', 't.last_edit_time, t.id')} AS drafts,
    ${rows('scheduled_messages', 't.realm_id = $1 AND t.sender_id = $2 AND NOT t.delivered', 't.scheduled_timestamp, t.id')} AS scheduled_messages,
    ${rows('user_topics', 't.user_id = $2')} AS user_topics,
    (SELECT max(t.message_id) FROM user_messages t WHERE t.user_id = $2) AS max_message_id,
    (SELECT coalesce(json_agg(x.message_id ORDER BY x.message_id), '[]') FROM (
       SELECT t.message_id FROM user_messages t
        WHERE t.user_id = $2 AND (t.flags & ${STARRED}) <> 0
        ORDER BY t.message_id LIMIT ${MAX_STARRED_MESSAGES}) x) AS starred,
    (SELECT coalesce(json_agg(json_build_array(r.max_message_id, r.member_ids) ORDER BY r.max_message_id DESC), '[]') FROM (
       SELECT d.max_message_id, c.member_ids FROM (
         SELECT m.conversation_id, max(t.message_id) AS max_message_id
           FROM user_messages t
           CROSS JOIN LATERAL (SELECT conversation_id FROM messages WHERE id = t.message_id OFFSET 0) m
          WHERE t.user_id = $2 AND (t.flags & ${IS_PRIVATE}) <> 0
          GROUP BY m.conversation_id) d
         JOIN direct_conversations c ON c.id = d.conversation_id
        ORDER BY d.max_message_id DESC
        LIMIT ${RECENT_CONVERSATIONS_LIMIT}) r) AS recent_conversations`;

type Json = Record<string, unknown>;

interface RawRegisterRows {
  streams: Json[];
  subscriptions: Json[];
  system_groups: Array<[string, number]>;
  subscriber_counts: Array<[number, number]>;
  last_messages: Array<[number, string]>;
  linkifiers: Json[];
  playgrounds: Json[];
  navigation_views: Json[];
  saved_snippets: Json[];
  alert_words: Json[];
  user_statuses: Json[];
  custom_profile_fields: Json[];
  channel_folders: Json[];
  realm_emoji: Json[];
  realm_domains: Json[];
  default_stream_groups: Json[];
  push_devices: Json[];
  muted_users: Json[];
  onboarding_steps: string[];
  drafts: Json[];
  scheduled_messages: Json[];
  user_topics: Json[];
  max_message_id: number | null;
  starred: number[];
  recent_conversations: Array<[number, number[]]>;
}

export interface RegisterRows {
  /** Every channel of the realm, archived ones included, by id. */
  streams: Stream[];
  /** The viewer's subscription rows in the realm, active or not. */
  subscriptions: Subscription[];
  systemGroups: Map<string, number>;
  subscriberCounts: Map<number, number>;
  /** When each channel's newest message was sent. */
  lastMessageAt: Map<number, Date>;
  linkifiers: Linkifier[];
  playgrounds: RealmPlayground[];
  navigationViews: NavigationView[];
  savedSnippets: SavedSnippet[];
  alertWords: AlertWord[];
  userStatuses: UserStatus[];
  customProfileFields: CustomProfileField[];
  channelFolders: ChannelFolder[];
  realmEmoji: RealmEmoji[];
  realmDomains: RealmDomain[];
  defaultStreamGroups: DefaultStreamGroup[];
  pushDevices: PushDevice[];
  mutedUsers: MutedUser[];
  onboardingSteps: string[];
  drafts: Draft[];
  /** Undelivered scheduled messages and reminders, soonest first. */
  scheduledMessages: ScheduledMessage[];
  userTopics: UserTopic[];
  maxMessageId: number | null;
  starred: number[];
  /** Direct conversations by their newest message, newest first: [max message id, member ids]. */
  recentConversations: Array<[number, number[]]>;
}

async function readRegisterRows(db: Db, realmId: number, userId: number | null): Promise<RegisterRows> {
  const [raw] = await rawQuery<RawRegisterRows>(db, REGISTER_ROWS_SQL, [realmId, userId], 'register_rows');
  const r = raw!;
  const as = <M extends Parameters<typeof rowFromJson>[1]>(model: M, list: Json[]) => list.map((j) => rowFromJson(db, model, j));
  return {
    streams: as('Stream', r.streams),
    subscriptions: as('Subscription', r.subscriptions),
    systemGroups: new Map(r.system_groups),
    subscriberCounts: new Map(r.subscriber_counts),
    // Timestamps without a zone are UTC here, as Prisma writes them.
    lastMessageAt: new Map(r.last_messages.map(([id, at]) => [id, new Date(`${at}Z`)])),
    linkifiers: as('Linkifier', r.linkifiers),
    playgrounds: as('RealmPlayground', r.playgrounds),
    navigationViews: as('NavigationView', r.navigation_views),
    savedSnippets: as('SavedSnippet', r.saved_snippets),
    alertWords: as('AlertWord', r.alert_words),
    userStatuses: as('UserStatus', r.user_statuses),
    customProfileFields: as('CustomProfileField', r.custom_profile_fields),
    channelFolders: as('ChannelFolder', r.channel_folders),
    realmEmoji: as('RealmEmoji', r.realm_emoji),
    realmDomains: as('RealmDomain', r.realm_domains),
    defaultStreamGroups: as('DefaultStreamGroup', r.default_stream_groups),
    pushDevices: as('PushDevice', r.push_devices),
    mutedUsers: as('MutedUser', r.muted_users),
    onboardingSteps: r.onboarding_steps,
    drafts: as('Draft', r.drafts),
    scheduledMessages: as('ScheduledMessage', r.scheduled_messages),
    userTopics: as('UserTopic', r.user_topics),
    maxMessageId: r.max_message_id,
    starred: r.starred,
    recentConversations: r.recent_conversations,
  };
}

/** Register's small sections' rows, read once per register whichever section asks first. */
export function registerRows(db: Db, opts: StateOptions): Promise<RegisterRows> {
  return once(opts, 'rows', () => readRegisterRows(db, opts.realm.id, opts.identity.userId ?? null));
}
