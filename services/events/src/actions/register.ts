/**
 * POST /register: parse and check the registration, create the queue, then read the initial
 * state. The queue exists before any state is read, so a change committed while the state is
 * being read is either in the state, in the queue, or in both, and never in neither; clients
 * of this API apply such duplicates idempotently.
 */
import { z } from 'zod';
import { errors, isGuest, LIMITS, optionalActor, SERVER_VERSION, EMPTY_TOPIC_DISPLAY_NAME, type Identity } from '@chat/contracts';
import type { Params } from '@chat/kit';
import { rawQuery, rowFromJson, type Db, type Realm } from '@chat/db';
import type { Redis } from 'ioredis';
import type { Keyspace } from '@chat/bus';
import { versionFields } from '@chat/wire';
import { fetchInitialState, type StateOptions } from '../state';
import type { Services } from '../context';

/** Subscriptions made for others in one request beyond which no notification messages are sent. */
const MAX_BULK_NEW_SUBSCRIPTION_MESSAGES = 100;

export type IncludeSubscribers = boolean | 'partial';

export interface RegisterRequest {
  applyMarkdown: boolean;
  clientGravatar: boolean;
  includeSubscribers: IncludeSubscribers;
  slimPresence: boolean;
  presenceHistoryLimitDays: number | null;
  eventTypes: string[] | null;
  fetchEventTypes: string[] | null;
  allPublicStreams: boolean;
  clientCapabilities: Record<string, boolean>;
  narrow: Array<[string, string]>;
  idleTimeoutSecs: number;
  clientName: string;
}

const stringList = z.array(z.string());
const capabilities = z.record(z.string(), z.boolean());
const narrowTerm = z.union([
  z.tuple([z.string(), z.union([z.string(), z.number()])]),
  z.object({ operator: z.string(), operand: z.union([z.string(), z.number()]), negated: z.boolean().optional() }),
]);

function parseIncludeSubscribers(p: Params): IncludeSubscribers {
  const raw = p.raw('include_subscribers');
  if (raw === undefined) return false;
  // Sent bare ("true", "partial") by form clients, JSON-encoded ('"partial"') by some others.
  const v = typeof raw === 'string' ? raw.replace(/^"(.*)"$/, '$1') : raw;
  if (v === true || v === 'true') return true;
  if (v === false || v === 'false') return false;
  if (v === 'partial') return 'partial';
  throw errors.invalidArgument('include_subscribers', "Invalid include_subscribers");
}

/** idle_queue_timeout=mobile: the long timeout the family gives phones, which poll rarely in the background. */
export const MOBILE_IDLE_QUEUE_TIMEOUT_SECS = 12 * 3600;

function parseIdleTimeout(p: Params): number {
  // idle_queue_timeout is the documented name; queue_lifespan_secs the older undocumented one.
  const name = p.raw('idle_queue_timeout') !== undefined ? 'idle_queue_timeout' : 'queue_lifespan_secs';
  const raw = p.raw(name);
  if (raw === undefined) return LIMITS.defaultIdleQueueTimeoutSecs;
  const text = typeof raw === 'string' ? raw.replace(/^"(.*)"$/, '$1') : raw;
  if (text === 'mobile') return MOBILE_IDLE_QUEUE_TIMEOUT_SECS;
  const value = typeof text === 'number' ? text : typeof text === 'string' && /^-?\d+$/.test(text.trim()) ? Number(text) : NaN;
  if (!Number.isInteger(value)) throw errors.invalidArgument(name, `Invalid ${name}`);
  if (value === 0) return LIMITS.defaultIdleQueueTimeoutSecs;
  if (value < 1 || value > LIMITS.maxIdleQueueTimeoutSecs) {
    throw errors.invalidArgument(name, `${name} must be between 1 and ${LIMITS.maxIdleQueueTimeoutSecs} seconds`);
  }
  return value;
}

/** Reads every register parameter; `authenticated` decides defaults and what is allowed. */
export function parseRegister(p: Params, identity: Identity, userAgent: string | undefined): RegisterRequest {
  const caller = optionalActor(identity);
  const authenticated = caller !== null;
  const guest = caller !== null && isGuest(caller);
  const gravatar = p.bool('client_gravatar');
  const includeSubscribers = parseIncludeSubscribers(p);
  if (!authenticated) {
    if (gravatar === true) throw errors.badRequest("Invalid 'client_gravatar' parameter for anonymous request");
    if (includeSubscribers !== false) {
      throw errors.badRequest("Invalid 'include_subscribers' parameter for anonymous request");
    }
  }
  const allPublicStreams = p.bool('all_public_streams');
  if (allPublicStreams && (!authenticated || guest)) throw errors.badRequest('User not authorized for this query');
  const presenceDays = p.int('presence_history_limit_days');
  if (presenceDays !== undefined && presenceDays < 0) {
    throw errors.invalidArgument('presence_history_limit_days', 'Invalid presence_history_limit_days');
  }
  const narrow = (p.json('narrow', z.array(narrowTerm)) ?? []).map((t): [string, string] =>
    Array.isArray(t)
      ? [t[0], String(t[1])]
      : [t.negated ? `-${t.operator}` : t.operator, String(t.operand)],
  );
  const eventTypes = p.json('event_types', stringList) ?? null;
  return {
    applyMarkdown: p.bool('apply_markdown', false),
    clientGravatar: gravatar ?? authenticated,
    includeSubscribers,
    slimPresence: p.bool('slim_presence', false),
    presenceHistoryLimitDays: presenceDays ?? null,
    eventTypes,
    fetchEventTypes: p.json('fetch_event_types', stringList) ?? eventTypes,
    allPublicStreams: allPublicStreams ?? false,
    clientCapabilities: p.json('client_capabilities', capabilities) ?? { notification_settings_null: false },
    narrow,
    idleTimeoutSecs: parseIdleTimeout(p),
    clientName: p.str('client') ?? clientFromUserAgent(userAgent),
  };
}

function clientFromUserAgent(ua: string | undefined): string {
  const first = (ua ?? '').split(/[\s/]/)[0];
  return first ? first.slice(0, 30) : 'API';
}

/** Facts of this deployment that register reports (events service configuration). */
export interface ServerInfo {
  /** zulip_merge_base / svc_merge_base (MERGE_BASE). */
  mergeBase: string;
  pushNotificationsEnabled: boolean;
  /** Not production: the development login is offered. */
  development: boolean;
}

export const DEFAULT_SERVER_INFO: ServerInfo = { mergeBase: SERVER_VERSION, pushNotificationsEnabled: false, development: true };

/** Always-present response fields (limits and server facts), whatever was fetched. */
function baseFields(realmTopicsPolicy: string, server: ServerInfo) {
  return {
    // Sent whatever was fetched: clients read the version before anything else.
    ...versionFields(server.mergeBase),
    idle_queue_timeout_secs: 0,
    event_queue_longpoll_timeout_seconds: LIMITS.eventQueueLongpollTimeoutSeconds,
    max_message_length: LIMITS.maxMessageLength,
    max_reminder_note_length: LIMITS.maxReminderNoteLength,
    max_topic_length: LIMITS.maxTopicLength,
    max_stream_name_length: LIMITS.maxStreamNameLength,
    max_stream_description_length: LIMITS.maxStreamDescriptionLength,
    realm_empty_topic_display_name: EMPTY_TOPIC_DISPLAY_NAME,
    realm_topics_policy: realmTopicsPolicy,
    max_channel_folder_name_length: LIMITS.maxChannelFolderNameLength,
    max_channel_folder_description_length: LIMITS.maxChannelFolderDescriptionLength,
    max_file_upload_size_mib: LIMITS.maxFileUploadSizeMib,
    max_bulk_new_subscription_messages: MAX_BULK_NEW_SUBSCRIPTION_MESSAGES,
  };
}

/** Spectators may register only where the realm lets them read web-public channels. */
async function checkSpectatorAccess(db: Db, realmId: number): Promise<void> {
  const realm = await db.realm.findUnique({ where: { id: realmId } });
  const settings = (realm?.settings ?? {}) as Record<string, unknown>;
  const webPublic = realm && settings.enable_spectator_access === true
    ? await db.stream.count({ where: { realmId, isWebPublic: true, isArchived: false } })
    : 0;
  if (!webPublic) throw errors.notLoggedIn();
}

/** Current end of the realm's partition stream: the new queue's starting source position. */
async function streamPosition(redis: Redis, keys: Keyspace, realmId: number): Promise<Record<string, string>> {
  const partition = keys.partitionOf(realmId);
  const last = (await redis.xrevrange(keys.stream(partition), '+', '-', 'COUNT', 1)) as Array<[string, string[]]>;
  return { [`src:${partition}`]: last[0]?.[0] ?? '0-0' };
}

/** The realm's row, straight from the pool: the first of register's reads, on every register. */
async function realmRow(db: Db, realmId: number): Promise<Realm | null> {
  const [row] = await rawQuery<{ r: Record<string, unknown> }>(db, 'SELECT to_jsonb(r) AS r FROM realms r WHERE r.id = $1', [realmId], 'register_realm');
  return row ? rowFromJson(db, 'Realm', row.r) : null;
}

export async function doRegister(services: Services, identity: Identity, req: RegisterRequest): Promise<Record<string, unknown>> {
  const realm = await realmRow(services.db, identity.realmId);
  if (!realm || realm.deactivated) throw errors.realmDeactivated();
  let queueId: string | null = null;
  if (identity.userId !== undefined) {
    queueId = await services.store.create({
      userId: identity.userId,
      realmId: identity.realmId,
      eventTypes: req.eventTypes,
      narrow: req.narrow,
      allPublicStreams: req.allPublicStreams,
      clientCapabilities: req.clientCapabilities,
      applyMarkdown: req.applyMarkdown,
      clientGravatar: req.clientGravatar,
      slimPresence: req.slimPresence,
      idleTimeoutSecs: req.idleTimeoutSecs,
      clientName: req.clientName,
      sources: await streamPosition(services.redis, services.keys, identity.realmId),
    });
  } else {
    await checkSpectatorAccess(services.db, identity.realmId);
  }
  const server = services.server ?? DEFAULT_SERVER_INFO;
  const options: StateOptions = { ...req, realm, identity, server };
  const state = await fetchInitialState(services.db, options);
  return {
    ...baseFields(realm.topicsPolicy, server),
    ...state,
    queue_id: queueId,
    last_event_id: -1,
    idle_queue_timeout_secs: req.idleTimeoutSecs,
  };
}
