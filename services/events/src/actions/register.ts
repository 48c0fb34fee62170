/**
 * POST /register (its parameters read by routes/register-params.ts): create the queue, then read
 * the initial state. The queue exists before any state is read, so a change committed while the state is
 * being read is either in the state, in the queue, or in both, and never in neither; clients
 * of this API apply such duplicates idempotently.
 */
import { errors, LIMITS, EMPTY_TOPIC_DISPLAY_NAME, type Identity } from '@chat/contracts';
import { rawQuery, rowFromJson, type Db, type Realm } from '@chat/db';
import type { Redis } from 'ioredis';
import type { Keyspace } from '@chat/bus';
import { versionFields } from '@chat/wire';
import { fetchInitialState, type StateOptions } from '../state';
import type { Services } from '../context';
import { DEFAULT_SERVER_INFO, type RegisterRequest, type ServerInfo } from '../state/request';

/** Subscriptions made for others in one request beyond which no notification messages are sent. */
const MAX_BULK_NEW_SUBSCRIPTION_MESSAGES = 100;

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
